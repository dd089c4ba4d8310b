import { and, desc, eq, gt, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { builtOnce, queryBuilder } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { messages, ticketActivity, ticketCounters, tickets } from '../../db/schema';
import { messageColumnById } from './message.repository';
import type { TicketRow } from './ticket.presenter';

type NewTicket = typeof tickets.$inferInsert;
export type TicketChanges = Partial<
  Pick<
    TicketRow,
    | 'status'
    | 'priority'
    | 'categoryId'
    | 'tags'
    | 'remarks'
    | 'subject'
    | 'groupId'
    | 'assigneeId'
    | 'closedBy'
    | 'closedAt'
    | 'unreadCount'
    | 'lastMessagePreview'
    | 'lastMessageAt'
  >
>;

const openStatuses = ['UNASSIGNED', 'ASSIGNED'] as const;

/**
 * Opens a ticket unless the room already has an open one: the partial unique index
 * `tickets_one_open_per_room` decides, and the loser gets undefined and re-reads.
 */
export async function insertOpenTicket(db: Executor, values: NewTicket): Promise<TicketRow | undefined> {
  const [row] = await db
    .insert(tickets)
    .values(values)
    .onConflictDoNothing({
      target: tickets.roomId,
      // The predicate must repeat the index's own, literally, for Postgres to pick it.
      where: sql.raw(`status in ('UNASSIGNED', 'ASSIGNED')`),
    })
    .returning();
  return row;
}

/** The room's open ticket (there is at most one). */
export async function findOpenTicketOfRoom(
  db: Executor,
  clientId: string,
  roomId: string,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(
      and(eq(tickets.clientId, clientId), eq(tickets.roomId, roomId), inArray(tickets.status, openStatuses)),
    );
  return row;
}

/** The room's newest ticket, whatever its state. */
export async function findLatestTicketOfRoom(db: Executor, clientId: string, roomId: string) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.clientId, clientId), eq(tickets.roomId, roomId)))
    .orderBy(desc(tickets.id))
    .limit(1);
  return row as TicketRow | undefined;
}

/** One ticket of the client; `forUpdate` locks it until the transaction ends. */
export async function findTicket(
  db: Executor,
  clientId: string,
  ticketId: number,
  options: { forUpdate?: boolean } = {},
): Promise<TicketRow | undefined> {
  const [raw] = await rawRowsOf(db, ticketQuery(clientId, ticketId, options));
  return raw ? ticketOfRow(raw) : undefined;
}

/** The statement behind findTicket, to read beside others (`readTogether`); rows by `ticketOfRow`. */
export function ticketQuery(clientId: string, ticketId: number, options: { forUpdate?: boolean } = {}): SQL {
  return (options.forUpdate ? ticketByIdForUpdate : ticketById)({ clientId, ticketId });
}

/** A ticket row as `rawRowsOf` or `readTogether` gives it, typed. */
export const ticketOfRow = rowMapperOf(tickets);

const ticketOfMessage = builtOnce<{ clientId: string; messageId: number }>(() =>
  queryBuilder
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.clientId, sql.placeholder('clientId')),
        eq(tickets.id, messageColumnById(messages.ticketId)),
      ),
    ),
);

/** The ticket of a message, read by the message's id beside other reads (`readTogether`); rows by `ticketOfRow`. */
export function ticketOfMessageQuery(clientId: string, messageId: number): SQL {
  return ticketOfMessage({ clientId, messageId });
}

/**
 * What a page's access check reads of a ticket by id (room, status, assignee), to read beside
 * the page itself (`readTogether`); its rows are `TicketAccessRow`s.
 */
export function ticketAccessQuery(clientId: string, ticketId: number): SQL {
  return ticketAccessById({ clientId, ticketId });
}

/** The columns `ticketAccessQuery` and its kin read, by column name. */
export const ticketAccessColumns = {
  room_id: tickets.roomId,
  status: tickets.status,
  assignee_id: tickets.assigneeId,
};

/** A row of `ticketAccessQuery`, as the driver gives it. */
export interface TicketAccessRow {
  room_id: string;
  status: TicketRow['status'];
  assignee_id: string | null;
}

const ticketAccessById = builtOnce<{ clientId: string; ticketId: number }>(() =>
  queryBuilder
    .select(ticketAccessColumns)
    .from(tickets)
    .where(
      and(eq(tickets.clientId, sql.placeholder('clientId')), eq(tickets.id, sql.placeholder('ticketId'))),
    ),
);

/** Every read of one ticket by id goes through these, rendered once (`builtOnce`). */
const byId = () =>
  queryBuilder
    .select()
    .from(tickets)
    .where(
      and(eq(tickets.clientId, sql.placeholder('clientId')), eq(tickets.id, sql.placeholder('ticketId'))),
    );
const ticketById = builtOnce<{ clientId: string; ticketId: number }>(byId);
const ticketByIdForUpdate = builtOnce<{ clientId: string; ticketId: number }>(() => byId().for('update'));

/** Writes ticket changes and answers the row as it now is. */
export async function updateTicket(
  db: Executor,
  clientId: string,
  ticketId: number,
  changes: TicketChanges,
): Promise<TicketRow> {
  const [row] = await db
    .update(tickets)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(tickets.clientId, clientId), eq(tickets.id, ticketId)))
    .returning();
  return row;
}

/** An agent's public reply: it becomes the preview, and replying means the chat was read. */
export async function applyOutboundMessage(
  db: Executor,
  clientId: string,
  ticketId: number,
  message: { preview: string; at: Date; assigneeId?: string },
): Promise<TicketRow> {
  return updateTicket(db, clientId, ticketId, {
    lastMessagePreview: message.preview,
    lastMessageAt: message.at,
    unreadCount: 0,
    ...(message.assigneeId ? { assigneeId: message.assigneeId, status: 'ASSIGNED' as const } : {}),
  });
}

/** A contact's tickets, newest first (the customer panel and chatRoom/history). */
export async function listContactTickets(
  db: Executor,
  clientId: string,
  contactId: string,
  limit: number,
): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.clientId, clientId), eq(tickets.contactId, contactId)))
    .orderBy(desc(tickets.createdAt), desc(tickets.id))
    .limit(limit);
}

/** The contact's open tickets other than this one, locked for closing together. */
export async function lockOtherOpenTickets(
  db: Executor,
  clientId: string,
  contactId: string,
  exceptTicketId: number,
): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.clientId, clientId),
        eq(tickets.contactId, contactId),
        ne(tickets.id, exceptTicketId),
        inArray(tickets.status, openStatuses),
      ),
    )
    .orderBy(tickets.id)
    .for('update');
}

/** A scope's open tickets: the sum of its counter's shards (migration 0040). */
export const counterSum = sql<number>`sum(${ticketCounters.count})::integer`;

/** Open-ticket counters kept by the trigger, for these scopes (`all`, `unassigned`, `user:<id>`). */
export async function readCounters(
  db: Executor,
  clientId: string,
  scopes: string[],
): Promise<Map<string, number>> {
  const rows = await db
    .select({ scope: ticketCounters.scope, count: counterSum })
    .from(ticketCounters)
    .where(and(eq(ticketCounters.clientId, clientId), inArray(ticketCounters.scope, scopes)))
    .groupBy(ticketCounters.scope);
  return new Map(rows.map((row) => [row.scope, row.count]));
}

/** Unread counts of the open chats assigned to the user (ticket_activity's assignee index serves it). */
export async function unreadOfAssignee(
  db: Executor,
  clientId: string,
  userId: string,
): Promise<Array<{ ticketId: number; count: number }>> {
  return db
    .select({ ticketId: tickets.id, count: tickets.unreadCount })
    .from(ticketActivity)
    .innerJoin(tickets, eq(tickets.id, ticketActivity.id))
    .where(
      and(
        eq(ticketActivity.clientId, clientId),
        eq(ticketActivity.assigneeId, userId),
        eq(ticketActivity.status, 'ASSIGNED'),
        gt(tickets.unreadCount, 0),
      ),
    )
    .orderBy(desc(ticketActivity.lastMessageAt))
    .limit(500);
}

/**
 * Tags in use, most used first, counted over the client's newest tagged tickets only: the
 * cost stays the same at a million tickets, and the suggestions follow current usage.
 */
export async function tagsInUse(
  db: Executor,
  clientId: string,
  options: { sample: number; limit: number },
): Promise<Array<{ name: string; count: number }>> {
  const result = (await db.execute(sql`
    select tag as name, count(*)::int as count
    from (
      select ${tickets.tags} as tags from ${tickets}
      where ${tickets.clientId} = ${clientId} and ${tickets.tags} <> '{}'
      order by ${tickets.createdAt} desc
      limit ${options.sample}
    ) recent, unnest(recent.tags) as tag
    group by tag
    order by count(*) desc, tag
    limit ${options.limit}`)) as unknown as { rows: Array<{ name: string; count: number }> };
  return result.rows;
}
