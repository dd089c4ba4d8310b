import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { channelAccounts, chatRooms, contactIdentities, tickets } from '../../db/schema';
import type { TicketRow } from './ticket.presenter';

export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type ChannelAccountRow = typeof channelAccounts.$inferSelect;

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

/** A channel account of the client that has not been removed. */
export async function findChannelAccount(
  db: Executor,
  clientId: string,
  channelAccountId: string,
): Promise<ChannelAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.clientId, clientId),
        eq(channelAccounts.id, channelAccountId),
        isNull(channelAccounts.deletedAt),
      ),
    );
  return row;
}

export async function findRoom(db: Executor, clientId: string, roomId: string) {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  return row as ChatRoomRow | undefined;
}

/** The room's current ticket, read with the room in one query (opening a room by its id). */
export async function findCurrentTicketOfRoom(
  db: Executor,
  clientId: string,
  roomId: string,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .select({ ticket: tickets })
    .from(chatRooms)
    .innerJoin(
      tickets,
      and(eq(tickets.clientId, chatRooms.clientId), eq(tickets.id, chatRooms.currentTicketId)),
    )
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  return row?.ticket;
}

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

/** Moves the room to its newest ticket and activity; the time never goes backwards. */
export async function touchRoom(
  db: Executor,
  clientId: string,
  roomId: string,
  changes: { currentTicketId?: number; lastMessageAt?: Date },
): Promise<void> {
  await db
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
}
