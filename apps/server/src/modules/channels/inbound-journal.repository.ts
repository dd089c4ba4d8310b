import type { ChannelCode } from '@app/contracts';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Executor } from '../../db/client';

/** What a webhook received, before it is kept. */
export interface NewJournalEntry {
  clientId: string;
  channelAccountId: string;
  channel: ChannelCode;
  /** What the provider sent, as its adapter parsed it (JSON). */
  payload: unknown;
}

/** A kept entry, as its adapter stores it. */
export interface JournalEntry extends NewJournalEntry {
  id: number;
  /** Tries that failed before this one. */
  attempts: number;
}

interface EntryRow {
  id: string | number;
  client_id: string;
  channel_account_id: string;
  channel: ChannelCode;
  payload: unknown;
  attempts: number;
}

const entryOf = (row: EntryRow): JournalEntry => ({
  id: Number(row.id),
  clientId: row.client_id,
  channelAccountId: row.channel_account_id,
  channel: row.channel,
  payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
  attempts: row.attempts,
});

/**
 * Keeps entries of one client in one statement (inside the caller's tenant transaction) and
 * answers their ids in the order given. The rows are inserted in that order from one
 * sequence, so their ids sort as they were given. Another process may take an entry once
 * `leaseMs` has passed without it being stored.
 */
export async function appendEntries(
  tx: Executor,
  clientId: string,
  entries: ReadonlyArray<NewJournalEntry>,
  leaseMs: number,
  /** Wake the worker processes' sweepers at commit (`inbound_journal`), for entries due now. */
  notify: boolean,
): Promise<number[]> {
  const items = entries.map((entry) => ({
    account: entry.channelAccountId,
    channel: entry.channel,
    payload: entry.payload,
  }));
  // The notice is sent once however many rows (an uncorrelated subquery runs once).
  const result = (await tx.execute(sql`
    with kept as (
      insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at)
      select ${clientId}::uuid, item.account, item.channel, item.payload,
             now() + ${leaseMs} * interval '1 millisecond'
        from rows from (jsonb_to_recordset(${JSON.stringify(items)}::jsonb)
                        as (account uuid, channel text, payload jsonb)) with ordinality
             as item(account, channel, payload, ord)
       order by item.ord
      returning id),
    told as (select pg_notify('inbound_journal', '') where ${notify})
    select id from kept where (select count(*) from told) >= 0`)) as unknown as {
    rows: Array<{ id: string | number }>;
  };
  return result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/**
 * Entries due again, over all clients (the sweeper runs as the owner, as the search words'
 * drain does): each is leased to the caller for `leaseMs`, and one leased by another process
 * is passed over. Oldest first, so one customer's messages keep their order.
 */
export async function takeDueEntries(
  database: DatabaseHandle,
  limit: number,
  leaseMs: number,
): Promise<JournalEntry[]> {
  const rows = await database.query<EntryRow>(
    `update inbound_journal set retry_at = now() + $2 * interval '1 millisecond'
      where id in (select id from inbound_journal where retry_at <= now()
                    order by retry_at limit $1 for update skip locked)
     returning id, client_id, channel_account_id, channel, payload, attempts`,
    [limit, leaseMs],
  );
  return rows.map(entryOf).sort((a, b) => a.id - b.id);
}

/** Forgets stored entries (and ones let go). */
export async function deleteEntries(database: DatabaseHandle, ids: ReadonlyArray<number>): Promise<void> {
  await database.query('delete from inbound_journal where id = any($1::bigint[])', [ids]);
}

/** A try failed: the entry is due again after a backoff that doubles up to an hour. */
export async function entryFailed(
  database: DatabaseHandle,
  id: number,
  error: string,
  firstBackoffMs: number,
): Promise<void> {
  await database.query(
    `update inbound_journal
        set attempts = attempts + 1, last_error = $2,
            retry_at = now() + least(interval '1 hour',
                                     $3 * interval '1 millisecond' * power(2, least(attempts, 20)))
      where id = $1`,
    [id, error.slice(0, 1000), firstBackoffMs],
  );
}
