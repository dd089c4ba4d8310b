import { createHash } from 'node:crypto';
import type { MessageStatus } from '@app/contracts';
import { and, asc, desc, eq, gt, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
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
type RoomPageValues = { clientId: string; roomId?: string; ticketId?: number; limit: number; id?: number };
type Direction = 'newest' | 'before' | 'after';

function roomPageStatement(direction: Direction, by: 'room' | 'ticket') {
  return builtOnce<RoomPageValues>(() => {
    const clientId = sql.placeholder('clientId');
    const room =
      by === 'room'
        ? sql.placeholder('roomId')
        : sql`(select ${tickets.roomId} from ${tickets} where ${tickets.clientId} = ${clientId} and ${tickets.id} = ${sql.placeholder('ticketId')})`;
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

/**
 * The newest page of a room with its fingerprint, for a page kept in memory (room-page-cache.ts).
 * Each message of the page has a key: its id and row version (`xmin`), and those of the message
 * it quotes. Any message written, changed or deleted among the `limit` newest, or one they quote,
 * changes a key or the set of keys; the fingerprint is the md5 of the keys in id order. Two
 * statements, by whether the caller holds a page of the room:
 * - `versioned`, when none is held: the page as `roomPageStatement` reads it, each row with its
 *   key; `checkedPageOf` takes the fingerprint of the keys.
 * - `checked`, given the fingerprint of the page held (`known`) and its keys (`kept`): the first
 *   row carries the fingerprint (`id` null). When it is the known one nothing follows, and the
 *   page cost its row versions and no JSON. Else the page's rows follow with their keys, and the
 *   JSON only of those whose key is not kept: a new message costs its own JSON, not the page's.
 * Either is one statement, so one snapshot. (`offset 0` keeps the JSON's lookup a subquery, so
 * the kept test gates it: pulled up into the join, every message was looked up before the test.)
 */
function checkedNewestStatement(by: 'room' | 'ticket', form: 'checked' | 'versioned') {
  return builtOnce<RoomPageValues & { known?: string; kept?: string[] }>(() => {
    const clientId = sql.placeholder('clientId');
    const limit = sql.placeholder('limit');
    const room =
      by === 'room'
        ? sql.placeholder('roomId')
        : sql`(select ${tickets.roomId} from ${tickets} where ${tickets.clientId} = ${clientId} and ${tickets.id} = ${sql.placeholder('ticketId')})`;
    const keyOf = (message: string, quoted: string) =>
      sql.raw(
        `${message}.id::text || '.' || ${message}.xmin::text || coalesce('>' || ${message}.quoted_message_id::text || '.' || coalesce(${quoted}, '-'), '')`,
      );
    const json = sql`${messageViewJson} as view, ${messageAttachmentsJson} as attachments`;
    if (form === 'versioned')
      return sql`select ${messages.id}, ${json}, ${keyOf(
        '"messages"',
        `case when "messages".quoted_message_id is not null then
           (select q.xmin::text from "messages" q where q.client_id = "messages".client_id and q.id = "messages".quoted_message_id) end`,
      )} as key
        from ${messages} where ${messages.clientId} = ${clientId} and ${messages.roomId} = ${room}
        order by ${messages.id} desc limit ${limit}`;
    return sql`with newest as materialized (
        select m.id, ${keyOf('m', 'q.xmin::text')} as key
          from ${messages} m
          left join ${messages} q on q.client_id = m.client_id and q.id = m.quoted_message_id
         where m.client_id = ${clientId} and m.room_id = ${room}
         order by m.id desc limit ${limit}),
      seen as (select md5(coalesce(string_agg(key, ',' order by id), '')) as fingerprint from newest)
      select fingerprint, null::bigint as id, null::text as view, null::jsonb as attachments, null::text as key from seen
      union all
      (select null, newest.id, changed.view, changed.attachments, newest.key
         from newest
         left join lateral (
           select ${json} from ${messages}
            where ${messages.clientId} = ${clientId} and ${messages.id} = newest.id
              and not (newest.key = any(${sql.placeholder('kept')}::text[])) offset 0) changed on true
        where (select fingerprint from seen) is distinct from ${sql.placeholder('known')}::text
        order by newest.id desc)`;
  });
}

const checkedNewest = {
  checked: {
    room: checkedNewestStatement('room', 'checked'),
    ticket: checkedNewestStatement('ticket', 'checked'),
  },
  versioned: {
    room: checkedNewestStatement('room', 'versioned'),
    ticket: checkedNewestStatement('ticket', 'versioned'),
  },
};

/** A page of a room's newest messages as kept in memory: each row with its key. */
export interface KeyedRoomPage {
  fingerprint: string;
  rows: Array<MessageJsonRow & { key: string }>;
  hasMore: boolean;
}

/**
 * The newest page of a room (given by id or as a ticket's room) with its fingerprint, checked
 * against the page held, if any. Read its rows with `checkedPageOf`.
 */
export function checkedNewestPageQuery(
  clientId: string,
  of: { roomId: string } | { ticketId: number },
  limit: number,
  held: KeyedRoomPage | undefined,
): SQL {
  const by = 'roomId' in of ? 'room' : 'ticket';
  return held === undefined
    ? checkedNewest.versioned[by]({ clientId, ...of, limit: limit + 1 })
    : checkedNewest.checked[by]({
        clientId,
        ...of,
        limit: limit + 1,
        known: held.fingerprint,
        kept: held.rows.map((row) => row.key),
      });
}

/**
 * The page `checkedNewestPageQuery` found: the one held when it is unchanged (`unchanged`), else
 * the page read, its unchanged messages' JSON taken from the page held.
 */
export function checkedPageOf(
  raw: ReadonlyArray<Record<string, unknown>>,
  limit: number,
  held: KeyedRoomPage | undefined,
): KeyedRoomPage & { unchanged: boolean } {
  // The fingerprint's row is the first the statement gives; it is found by its null id all the same.
  const checked = held ? raw.find((row) => row.id === null) : undefined;
  if (held && checked?.fingerprint === held.fingerprint) return { ...held, unchanged: true };
  const heldById = new Map(held?.rows.map((row) => [row.id, row]));
  const keyed = raw
    .filter((row) => row.id !== null)
    .slice(0, limit)
    .map((row) => {
      const id = Number(row.id);
      const key = String(row.key);
      if (row.view !== null)
        return {
          id,
          key,
          view: row.view as string,
          attachments: (row.attachments ?? null) as MessageJsonRow['attachments'],
        };
      // No JSON: its key was among the held page's, and the key names the message.
      const kept = heldById.get(id);
      if (!kept) throw new Error(`room page: message ${id} came without JSON and was not held`);
      return kept;
    })
    .reverse();
  const readRows = raw.filter((row) => row.id !== null);
  const fingerprint = held
    ? String(checked?.fingerprint)
    : createHash('md5')
        .update(
          readRows
            .map((row) => String(row.key))
            .reverse()
            .join(','),
        )
        .digest('hex');
  return { fingerprint, rows: keyed, hasMore: readRows.length > limit, unchanged: false };
}

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
