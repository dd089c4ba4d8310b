import type { MessageStatus } from '@app/contracts';
import { and, asc, desc, eq, gt, inArray, lt, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { builtOnce, queryBuilder } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { messages, tickets } from '../../db/schema';
import { type MessageJsonRow, messageAttachmentsJson, messageViewJson } from './json-views';
import type { MessageRow } from './ticket.presenter';

type NewMessage = typeof messages.$inferInsert;

/**
 * Inserts a message unless its provider id or its sender's client message id is already
 * taken; then undefined, and the caller reads the first one back.
 */
export async function insertMessage(db: Executor, values: NewMessage): Promise<MessageRow | undefined> {
  const [row] = await db.insert(messages).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findMessage(
  db: Executor,
  clientId: string,
  messageId: number,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.clientId, clientId), eq(messages.id, messageId)));
  return row;
}

/** The message this sender (`user:<id>`, `identity:<id>`) already sent with this key. */
export async function findByClientMessageId(
  db: Executor,
  clientId: string,
  senderRef: string,
  clientMessageId: string,
): Promise<MessageRow | undefined> {
  const [raw] = await rawRowsOf(db, clientMessageQuery(clientId, senderRef, clientMessageId));
  return raw ? messageOfRow(raw) : undefined;
}

const messageByClientMessageId = builtOnce<{ clientId: string; senderRef: string; clientMessageId: string }>(
  () =>
    queryBuilder
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.clientId, sql.placeholder('clientId')),
          eq(messages.senderRef, sql.placeholder('senderRef')),
          eq(messages.clientMessageId, sql.placeholder('clientMessageId')),
        ),
      ),
);

/** The statement behind findByClientMessageId, to read beside others (`readTogether`); rows by `messageOfRow`. */
export function clientMessageQuery(clientId: string, senderRef: string, clientMessageId: string): SQL {
  return messageByClientMessageId({ clientId, senderRef, clientMessageId });
}

/** A message row as `rawRowsOf` or `readTogether` gives it, typed. */
export const messageOfRow = rowMapperOf(messages);

/** The message named by the `clientId` and `messageId` placeholders. */
const messageIdIsGiven = () =>
  and(eq(messages.clientId, sql.placeholder('clientId')), eq(messages.id, sql.placeholder('messageId')));

const messageById = builtOnce<{ clientId: string; messageId: number }>(() =>
  queryBuilder.select().from(messages).where(messageIdIsGiven()),
);

/**
 * A column of one message by id (its room, its ticket), as a subquery for statements that read
 * what belongs to the message beside the message itself (`readTogether`).
 */
export const messageColumnById = (column: AnyPgColumn) =>
  queryBuilder.select({ value: column }).from(messages).where(messageIdIsGiven());

/** The statement behind findMessage, to read beside others (`readTogether`); rows by `messageOfRow`. */
export function messageQuery(clientId: string, messageId: number): SQL {
  return messageById({ clientId, messageId });
}

/** What a delivery's outcome writes on its message. */
export type DeliveryRecord = {
  status: MessageStatus;
  /** The provider's id for the message; null keeps the one it has. */
  providerMessageId: string | null;
  failureReason: string | null;
};

const deliveryRecorded = builtOnce<{ clientId: string; messageId: number } & DeliveryRecord>(
  () => sql`update ${messages}
     set status = ${sql.placeholder('status')},
         failure_reason = ${sql.placeholder('failureReason')},
         provider_message_id = coalesce(${sql.placeholder('providerMessageId')}, ${messages.providerMessageId}),
         updated_at = now()
   where ${messages.clientId} = ${sql.placeholder('clientId')} and ${messages.id} = ${sql.placeholder('messageId')}
     and ${messages.status} = 'PENDING'
   returning *`,
);

/**
 * Moves a PENDING message to its delivery's outcome, as a statement to run beside others
 * (`readTogether`); no row when it was no longer pending. Rows by `messageOfRow`.
 */
export function recordDeliveryQuery(clientId: string, messageId: number, record: DeliveryRecord): SQL {
  return deliveryRecorded({ clientId, messageId, ...record });
}

/**
 * The room's page statements, rendered once (`builtOnce`): newest, older than an id, newer
 * than one; the room named by id, or as a ticket's room (so the ticket and the page can be
 * read together). Each row is the message written as JSON by PostgreSQL (json-views.ts).
 */
export type RoomPageValues = {
  clientId: string;
  roomId?: string;
  ticketId?: number;
  limit: number;
  id?: number;
};

/**
 * The room a page statement reads: the `roomId` placeholder, or the room of the ticket named by
 * the `ticketId` placeholder (so the ticket and the page can be read together).
 */
export function pageRoom(by: 'room' | 'ticket'): SQLWrapper {
  return by === 'room'
    ? sql.placeholder('roomId')
    : sql`(select ${tickets.roomId} from ${tickets} where ${tickets.clientId} = ${sql.placeholder('clientId')} and ${tickets.id} = ${sql.placeholder('ticketId')})`;
}
type Direction = 'newest' | 'before' | 'after';

function roomPageStatement(direction: Direction, by: 'room' | 'ticket') {
  return builtOnce<RoomPageValues>(() => {
    const clientId = sql.placeholder('clientId');
    const room = pageRoom(by);
    const inRoom = and(eq(messages.clientId, clientId), eq(messages.roomId, room));
    return queryBuilder
      .select({
        id: messages.id,
        view: sql<string>`${messageViewJson}`.as('view'),
        attachments: sql`${messageAttachmentsJson}`.as('attachments'),
      })
      .from(messages)
      .where(
        direction === 'newest'
          ? inRoom
          : and(inRoom, (direction === 'before' ? lt : gt)(messages.id, sql.placeholder('id'))),
      )
      .orderBy(direction === 'after' ? asc(messages.id) : desc(messages.id))
      .limit(sql.placeholder('limit'));
  });
}

const roomPages = {
  newest: { room: roomPageStatement('newest', 'room'), ticket: roomPageStatement('newest', 'ticket') },
  before: { room: roomPageStatement('before', 'room'), ticket: roomPageStatement('before', 'ticket') },
  after: { room: roomPageStatement('after', 'room'), ticket: roomPageStatement('after', 'ticket') },
};

export type RoomPageQuery = { before?: number; after?: number; limit: number };

/**
 * One page of a room, over `messages_room_idx`: the newest `limit`, the `limit` before an id
 * (scrolling up) or after one (catching up), reading one extra row to tell whether there is
 * more in that direction. The room is given by id, or as a ticket's room. Read its rows with
 * `roomPageOf`.
 */
export function roomPageQuery(
  clientId: string,
  of: { roomId: string } | { ticketId: number },
  page: RoomPageQuery,
): SQL {
  const direction: Direction =
    page.after !== undefined ? 'after' : page.before !== undefined ? 'before' : 'newest';
  return roomPages[direction]['roomId' in of ? 'room' : 'ticket']({
    clientId,
    ...of,
    limit: page.limit + 1,
    ...(direction === 'newest' ? {} : { id: direction === 'after' ? page.after : page.before }),
  });
}

/** The page's messages as JSON rows (json-views.ts), oldest first, from `roomPageQuery`'s rows. */
export function roomPageOf(
  raw: ReadonlyArray<Record<string, unknown>>,
  page: RoomPageQuery,
): { rows: MessageJsonRow[]; hasMore: boolean } {
  const rows = raw.slice(0, page.limit).map(
    (row): MessageJsonRow => ({
      id: Number(row.id),
      view: row.view as string,
      attachments: (row.attachments ?? null) as MessageJsonRow['attachments'],
    }),
  );
  return { rows: page.after !== undefined ? rows : rows.reverse(), hasMore: raw.length > page.limit };
}

/** Text and sender of the quoted messages, by id. */
export async function findQuoted(
  db: Executor,
  clientId: string,
  ids: number[],
): Promise<Map<number, { id: number; text: string; senderName: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: messages.id, text: messages.text, senderName: messages.senderName })
    .from(messages)
    .where(and(eq(messages.clientId, clientId), inArray(messages.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Changes a message; with `onlyFrom`, only while it is still in one of those states. */
export async function updateMessage(
  db: Executor,
  clientId: string,
  messageId: number,
  changes: Partial<Pick<MessageRow, 'status' | 'failureReason' | 'providerMessageId'>>,
  options: { onlyFrom?: ReadonlyArray<MessageStatus> } = {},
): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        eq(messages.clientId, clientId),
        eq(messages.id, messageId),
        options.onlyFrom ? inArray(messages.status, [...options.onlyFrom]) : undefined,
      ),
    )
    .returning();
  return row;
}

/** Delivery states in the order they may only move forward; FAILED is outside it. */
const deliveryRank = sql`case ${messages.status} when 'PENDING' then 0 when 'SENT' then 1 when 'DELIVERED' then 2 when 'READ' then 3 else 99 end`;
const rankOf: Record<'DELIVERED' | 'READ', number> = { DELIVERED: 2, READ: 3 };

/** A provider's receipt for one of our messages; moves it forward only. */
export async function advanceByProviderId(
  db: Executor,
  clientId: string,
  channelAccountId: string,
  providerMessageId: string,
  status: 'DELIVERED' | 'READ',
): Promise<MessageRow[]> {
  return db
    .update(messages)
    .set({ status, updatedAt: new Date() })
    .where(
      and(
        eq(messages.clientId, clientId),
        eq(messages.channelAccountId, channelAccountId),
        eq(messages.providerMessageId, providerMessageId),
        eq(messages.direction, 'OUTBOUND'),
        sql`${deliveryRank} < ${rankOf[status]}`,
      ),
    )
    .returning();
}

/** The widget's "seen up to here": every earlier outbound public message of the room moves forward. */
export async function advanceRoomUpTo(
  db: Executor,
  clientId: string,
  roomId: string,
  upToMessageId: number,
  status: 'DELIVERED' | 'READ',
): Promise<MessageRow[]> {
  return db
    .update(messages)
    .set({ status, updatedAt: new Date() })
    .where(
      and(
        eq(messages.clientId, clientId),
        eq(messages.roomId, roomId),
        lte(messages.id, upToMessageId),
        eq(messages.direction, 'OUTBOUND'),
        eq(messages.kind, 'PublicMessage'),
        sql`${deliveryRank} < ${rankOf[status]}`,
      ),
    )
    .returning();
}

export async function deleteMessage(db: Executor, clientId: string, messageId: number): Promise<void> {
  await db.delete(messages).where(and(eq(messages.clientId, clientId), eq(messages.id, messageId)));
}
