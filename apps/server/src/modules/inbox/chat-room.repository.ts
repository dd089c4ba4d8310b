import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { builtOnce, queryBuilder } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rowMapperOf } from '../../db/json-row';
import { channelAccounts, chatRooms, contactIdentities, contacts, messages, tickets } from '../../db/schema';
import { runAtCommit } from '../../db/tenant-connections';
import { ticketSummaryJson } from './json-views';
import { messageColumnById } from './message.repository';
import { ticketAccessColumns, ticketQuery } from './ticket.repository';

export type ChatRoomRow = typeof chatRooms.$inferSelect;

/**
 * Serialises everything that happens to one customer on one channel account until the
 * transaction ends: two first messages, a repeated delivery and an agent opening a chat
 * all take their turn, so no second contact, room or open ticket can appear.
 */
export async function lockCustomer(db: Executor, channelAccountId: string, externalId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${channelAccountId}:${externalId}`}, 0))`,
  );
}

const roomOfTicket = builtOnce<{ clientId: string; ticketId: number }>(() =>
  queryBuilder
    .select()
    .from(chatRooms)
    .where(
      and(
        eq(chatRooms.clientId, sql.placeholder('clientId')),
        eq(
          chatRooms.id,
          queryBuilder
            .select({ roomId: tickets.roomId })
            .from(tickets)
            .where(
              and(
                eq(tickets.clientId, sql.placeholder('clientId')),
                eq(tickets.id, sql.placeholder('ticketId')),
              ),
            ),
        ),
      ),
    ),
);

/** The room of a ticket, read by the ticket's id beside other reads (`readTogether`); rows by `roomOfRow`. */
export function roomOfTicketQuery(clientId: string, ticketId: number): SQL {
  return roomOfTicket({ clientId, ticketId });
}

/** A room row as `rawRowsOf` or `readTogether` gives it, typed. */
export const roomOfRow = rowMapperOf(chatRooms);

/** The room a message was written in, by the message's id. */
const roomIdOfMessage = () => messageColumnById(messages.roomId);

const roomOfMessage = builtOnce<{ clientId: string; messageId: number }>(() =>
  queryBuilder
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.clientId, sql.placeholder('clientId')), eq(chatRooms.id, roomIdOfMessage()))),
);

/** The room of a message, read by the message's id beside other reads (`readTogether`); rows by `roomOfRow`. */
export function roomOfMessageQuery(clientId: string, messageId: number): SQL {
  return roomOfMessage({ clientId, messageId });
}

const customerOfMessage = builtOnce<{ clientId: string; messageId: number }>(() =>
  queryBuilder
    .select()
    .from(contactIdentities)
    .where(
      and(
        eq(contactIdentities.clientId, sql.placeholder('clientId')),
        eq(
          contactIdentities.id,
          queryBuilder
            .select({ identityId: chatRooms.contactIdentityId })
            .from(chatRooms)
            .where(
              and(eq(chatRooms.clientId, sql.placeholder('clientId')), eq(chatRooms.id, roomIdOfMessage())),
            ),
        ),
      ),
    ),
);

/**
 * The customer's identity (`contact_identities`) of the room a message was written in, by the
 * message's id, beside other reads (`readTogether`); rows by `identityOfRow`.
 */
export function customerOfMessageQuery(clientId: string, messageId: number): SQL {
  return customerOfMessage({ clientId, messageId });
}

/** A contact identity row as `rawRowsOf` or `readTogether` gives it, typed. */
export const identityOfRow = rowMapperOf(contactIdentities);

export async function findRoom(db: Executor, clientId: string, roomId: string) {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  return row as ChatRoomRow | undefined;
}

/**
 * What the access check reads of the room's current ticket (`TicketAccessRow`), with the room
 * in one query (opening a room by its id).
 */
export function currentTicketAccessOfRoomQuery(clientId: string, roomId: string): SQL {
  return currentTicketAccessOfRoom({ clientId, roomId });
}

const currentTicketAccessOfRoom = builtOnce<{ clientId: string; roomId: string }>(() =>
  queryBuilder
    .select(ticketAccessColumns)
    .from(chatRooms)
    .innerJoin(
      tickets,
      and(eq(tickets.clientId, chatRooms.clientId), eq(tickets.id, chatRooms.currentTicketId)),
    )
    .where(
      and(eq(chatRooms.clientId, sql.placeholder('clientId')), eq(chatRooms.id, sql.placeholder('roomId'))),
    ),
);

/**
 * What chatRoom/detail reads, as statements to send together (`readTogether`), each finding
 * its row through the ticket: the ticket, its contact, its channel account (unless removed)
 * and the contact's tickets, newest first, at most `limit`. Answers in that order.
 */
export function ticketDetailQueries(clientId: string, ticketId: number, limit: number): SQL[] {
  const values = { clientId, ticketId, limit };
  return [
    ticketQuery(clientId, ticketId),
    contactOfTicket(values),
    accountOfTicket(values),
    contactTickets(values),
  ];
}

type DetailValues = { clientId: string; ticketId: number; limit: number };
/** A field of the ticket, as an uncorrelated subquery. */
const fieldOfTicket = (field: 'contact_id' | 'channel_account_id') =>
  sql`(select t.${sql.raw(field)} from ${tickets} t where t.client_id = ${sql.placeholder('clientId')} and t.id = ${sql.placeholder('ticketId')})`;
const contactOfTicket = builtOnce<DetailValues>(() =>
  queryBuilder
    .select()
    .from(contacts)
    .where(
      and(eq(contacts.clientId, sql.placeholder('clientId')), eq(contacts.id, fieldOfTicket('contact_id'))),
    ),
);
const accountOfTicket = builtOnce<DetailValues>(() =>
  queryBuilder
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.clientId, sql.placeholder('clientId')),
        eq(channelAccounts.id, fieldOfTicket('channel_account_id')),
        isNull(channelAccounts.deletedAt),
      ),
    ),
);
/**
 * The contact's tickets, newest first: what the caller's visibility needs (id, status,
 * assignee_id) and each ticket as `TicketSummary` JSON text (`view`, json-views.ts), sent as it
 * is. Parsing, mapping, presenting and checking 51 whole tickets was most of the server's time
 * on the chat room's detail.
 */
const contactTickets = builtOnce<DetailValues>(() =>
  queryBuilder
    .select({
      id: tickets.id,
      status: tickets.status,
      assigneeId: tickets.assigneeId,
      view: sql`${ticketSummaryJson}`.as('view'),
    })
    .from(tickets)
    .where(
      and(
        eq(tickets.clientId, sql.placeholder('clientId')),
        eq(tickets.contactId, fieldOfTicket('contact_id')),
      ),
    )
    .orderBy(desc(tickets.createdAt), desc(tickets.id))
    .limit(sql.placeholder('limit')),
);

/** The room of a contact identity (there is one per identity). */
export async function findRoomOfIdentity(db: Executor, clientId: string, contactIdentityId: string) {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.contactIdentityId, contactIdentityId)));
  return row as ChatRoomRow | undefined;
}

/** The room with the customer's id on its channel, for an agent who opens a new chat in it. */
export async function findRoomWithExternalId(
  db: Executor,
  clientId: string,
  roomId: string,
): Promise<{ room: ChatRoomRow; externalId: string } | undefined> {
  const [row] = await db
    .select({ room: chatRooms, externalId: contactIdentities.externalId })
    .from(chatRooms)
    .innerJoin(contactIdentities, eq(contactIdentities.id, chatRooms.contactIdentityId))
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  return row;
}

/**
 * Moves the room to its newest ticket and activity; the time never goes backwards. With
 * `atCommit` the update travels with the transaction's commit (`runAtCommit`), for a path
 * that does not read the room back.
 */
export async function touchRoom(
  db: Executor,
  clientId: string,
  roomId: string,
  changes: { currentTicketId?: number; lastMessageAt?: Date },
  options: { atCommit?: boolean } = {},
): Promise<void> {
  const update = db
    .update(chatRooms)
    .set({
      ...(changes.currentTicketId !== undefined ? { currentTicketId: changes.currentTicketId } : {}),
      ...(changes.lastMessageAt
        ? {
            lastMessageAt: sql`greatest(${chatRooms.lastMessageAt}, ${changes.lastMessageAt.toISOString()}::timestamptz)`,
          }
        : {}),
    })
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  if (options.atCommit) await runAtCommit(db, update.getSQL());
  else await update;
}
