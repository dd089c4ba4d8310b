import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once';
import { messages } from '../../db/schema';
import { type MessageJsonRow, messageAttachmentsJson, messageViewJson } from './json-views';
import { pageRoom, type RoomPageValues } from './message.repository';

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
    const room = pageRoom(by);
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
  const readRows = raw.filter((row) => row.id !== null);
  const keyed = readRows
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
