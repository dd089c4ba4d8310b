import type { MessageStatus } from '@app/contracts';
import { and, asc, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { messages } from '../../db/schema';
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
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.clientId, clientId),
        eq(messages.senderRef, senderRef),
        eq(messages.clientMessageId, clientMessageId),
      ),
    );
  return row;
}

/**
 * One page of a room, oldest first, over `messages_room_idx`: the newest `limit`, the
 * `limit` before an id (scrolling up) or after one (catching up). One extra row tells
 * whether there is more in that direction.
 */
export async function pageOfRoom(
  db: Executor,
  clientId: string,
  roomId: string,
  page: { before?: number; after?: number; limit: number },
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const inRoom = and(eq(messages.clientId, clientId), eq(messages.roomId, roomId));
  const toRow = rowMapperOf(messages);
  if (page.after !== undefined) {
    const raw = await rawRowsOf(
      db,
      db
        .select()
        .from(messages)
        .where(and(inRoom, gt(messages.id, page.after)))
        .orderBy(asc(messages.id))
        .limit(page.limit + 1),
    );
    return { rows: raw.slice(0, page.limit).map(toRow), hasMore: raw.length > page.limit };
  }
  const raw = await rawRowsOf(
    db,
    db
      .select()
      .from(messages)
      .where(page.before !== undefined ? and(inRoom, lt(messages.id, page.before)) : inRoom)
      .orderBy(desc(messages.id))
      .limit(page.limit + 1),
  );
  return { rows: raw.slice(0, page.limit).reverse().map(toRow), hasMore: raw.length > page.limit };
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
