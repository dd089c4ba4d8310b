// EXPLAIN (ANALYZE, BUFFERS) of the queries the inbox runs, captured from the server's own
// repositories (not retyped), run as the tenant role under row-level security, and written
// to bench/plans/<tickets>/. Fails when a plan reads a tenant's tickets or messages with a
// sequential scan.
//
//   npm run bench:explain [-- --out bench/plans/1m]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type TicketFilterQuery, ticketFilterQuery } from '@app/contracts';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../apps/server/src/db/client';
import { inlineParams } from '../apps/server/src/db/inline-params';
import { rawRowsOf } from '../apps/server/src/db/json-row';
import * as schema from '../apps/server/src/db/schema';
import { plannerSetup, withTenant } from '../apps/server/src/db/tenant';
import type { InboxScope } from '../apps/server/src/modules/inbox/inbox.policy';
import {
  type RoomPageQuery,
  roomPageOf,
  roomPageQuery,
} from '../apps/server/src/modules/inbox/message.repository';
import {
  checkedNewestPageQuery,
  checkedPageOf,
  type KeyedRoomPage,
} from '../apps/server/src/modules/inbox/room-page.repository';
import { findTicketExportDetails } from '../apps/server/src/modules/inbox/ticket-export.repository';
import { findTicketCounters } from '../apps/server/src/modules/inbox/ticket-query.repository';
import { listDefaults, TicketQueryService } from '../apps/server/src/modules/inbox/ticket-query.service';
import { findMessageHits } from '../apps/server/src/modules/inbox/ticket-search.repository';
import { TicketSearchService } from '../apps/server/src/modules/inbox/ticket-search.service';
import { benchDatabaseUrl, parseFlags } from './lib/bench-db';
import { tableFilters } from './lib/list-filters';
import { bigClientSlug, giantRoomName, seasonalKeyword, seededCustomerSql } from './seed-names';

const flags = parseFlags(process.argv.slice(2));
const url = benchDatabaseUrl();
const pool = new pg.Pool({ connectionString: url, max: 2 });

let captured: Array<{ query: string; params: unknown[] }> = [];
const db = drizzle(pool, {
  schema,
  logger: {
    logQuery(query, params) {
      captured.push({ query, params });
    },
  },
}) as unknown as Database;

const one = async <T>(text: string, values: unknown[] = []) => (await pool.query(text, values)).rows[0] as T;
const client = await one<{ id: string }>('select id from clients where slug = $1', [bigClientSlug]);
const owner = await one<{ id: string }>(`select id from users where client_id = $1 and role = 'OWN'`, [
  client.id,
]);
const agent = await one<{ id: string }>(
  `select assignee_id as id from tickets where client_id = $1 and status = 'ASSIGNED' limit 1`,
  [client.id],
);
const room = await one<{ id: string; ticketId: number }>(
  'select id, current_ticket_id::int as "ticketId" from chat_rooms where client_id = $1 and name = $2',
  [client.id, giantRoomName],
);
const size = await one<{ tickets: string; messages: string }>(
  `select (select count(*) from tickets where client_id = $1) as tickets,
          (select count(*) from messages where client_id = $1) as messages`,
  [client.id],
);
const count = Number(size.tickets);
const sizeLabel = count >= 1e6 ? `${Math.round(count / 1e6)}m` : `${Math.round(count / 1e3)}k`;
const outDir = flags.out ?? path.join('bench', 'plans', sizeLabel);
mkdirSync(outDir, { recursive: true });

const ownerScope: InboxScope = {
  userId: owner.id,
  clientId: client.id,
  seesAll: true,
  seesQueue: true,
  canReply: true,
  canBeAssigned: true,
  canManage: true,
};
const agentScope: InboxScope = { ...ownerScope, userId: agent.id, seesAll: false, canManage: false };
const tickets = new TicketQueryService(db);
const search = new TicketSearchService(db, tickets);
const query = (extra: Partial<TicketFilterQuery>): TicketFilterQuery => ({
  sort: 'createdAt',
  pageSize: 50,
  ...extra,
});

/** Runs the work once to capture its SQL, then explains each statement but the tenant setup. */
async function explain(name: string, work: () => Promise<unknown>): Promise<void> {
  captured = [];
  await work();
  const statements = captured.filter(
    // A statement may open with a comment (`withGenericPlan`'s marker).
    (entry) =>
      /^\s*(\/\*.*?\*\/\s*)?(select|with|\()/i.test(entry.query) &&
      !/set_config\('app\.client_id'/.test(entry.query),
  );
  const sections: string[] = [];
  const poolClient = await pool.connect();
  try {
    for (const statement of statements) {
      await poolClient.query('begin');
      await poolClient.query(
        `select set_config('app.client_id', $1, true), set_config('role', 'app_tenant', true), ${plannerSetup}`,
        [client.id],
      );
      const result = await poolClient.query(
        `explain (analyze, buffers, format text) ${statement.query}`,
        statement.params as unknown[],
      );
      const plan = result.rows.map((row) => row['QUERY PLAN']).join('\n');
      // The server prepares its statements (db/pipeline.ts): after five runs PostgreSQL may keep
      // one generic plan for every value, so that plan must read index ranges too.
      const generic = await genericPlan(poolClient, statement.query, statement.params as unknown[]);
      await poolClient.query('rollback');
      const sequential = bigTables.exec(plan) ?? bigTables.exec(generic);
      sections.push(
        `-- ${statement.query}\n-- params: ${JSON.stringify(statement.params)}\n${plan}\n\n` +
          `-- the generic plan (plan_cache_mode = force_generic_plan):\n${generic}\n`,
      );
      const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
      const genericTime = /Execution Time: ([\d.]+) ms/.exec(generic)?.[1];
      console.log(
        `${name.padEnd(40)} ${String(time).padStart(9)} ms  generic ${String(genericTime).padStart(9)} ms` +
          `${sequential ? `  SEQUENTIAL SCAN: ${sequential[0]}` : ''}`,
      );
      if (sequential) process.exitCode = 1;
    }
  } finally {
    poolClient.release();
  }
  writeFileSync(path.join(outDir, `${name}.txt`), sections.join('\n'));
}

/** EXPLAIN ANALYZE of the statement's generic plan, inside the caller's transaction. */
async function genericPlan(poolClient: pg.PoolClient, text: string, params: unknown[]): Promise<string> {
  await poolClient.query(`set local plan_cache_mode = force_generic_plan`);
  await poolClient.query('deallocate all');
  await poolClient.query(`prepare generic_plan as ${text}`);
  const values = params.map((_, index) => `$${index + 1}`).join(', ');
  const execute = inlineParams(
    `explain (analyze, buffers, format text) execute generic_plan(${values})`,
    params,
  );
  const result = await poolClient.query(
    params.length > 0 ? execute : 'explain (analyze, buffers) execute generic_plan',
  );
  await poolClient.query('deallocate generic_plan');
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** Tables whose sequential scan under a tenant is a bug at this size. */
const bigTables =
  /Seq Scan on (tickets|ticket_activity|messages|contact_identities|chat_rooms|contacts|ticket_search|ticket_customer_names)\b/;

/**
 * The plans of the statements a SQL function runs (the inbound ones write through plpgsql,
 * whose statements EXPLAIN of the call does not show), from auto_explain's nested-statement
 * log sent to this connection; the call is rolled back.
 */
async function explainCall(name: string, text: string, values: unknown[]): Promise<void> {
  const poolClient = await pool.connect();
  const logged: string[] = [];
  const onNotice = (notice: { message?: string }) => {
    if (notice.message?.includes('Query Text:')) logged.push(notice.message);
  };
  poolClient.on('notice', onNotice);
  try {
    await poolClient.query(`load 'auto_explain'`);
    await poolClient.query('begin');
    await poolClient.query(
      `select set_config('auto_explain.log_min_duration', '0', true),
              set_config('auto_explain.log_nested_statements', 'on', true),
              set_config('auto_explain.log_analyze', 'on', true),
              set_config('client_min_messages', 'log', true)`,
    );
    await poolClient.query(
      `select set_config('app.client_id', $1, true), set_config('role', 'app_tenant', true), ${plannerSetup}`,
      [client.id],
    );
    const started = performance.now();
    await poolClient.query(text, values);
    const took = performance.now() - started;
    await poolClient.query('rollback');
    const plans = logged.filter((entry) => !entry.includes('set_config('));
    const sequential = plans.map((plan) => bigTables.exec(plan)?.[0]).filter(Boolean);
    console.log(
      `${name.padEnd(40)} ${took.toFixed(3).padStart(9)} ms (${plans.length} statements)` +
        `${sequential.length > 0 ? `  SEQUENTIAL SCAN: ${sequential.join(', ')}` : ''}`,
    );
    if (sequential.length > 0) process.exitCode = 1;
    writeFileSync(path.join(outDir, `${name}.txt`), `-- ${text}\n\n${plans.join('\n\n')}\n`);
  } finally {
    poolClient.off('notice', onNotice);
    poolClient.release();
  }
}

console.log(`plans for ${bigClientSlug}: ${size.tickets} tickets, ${size.messages} messages → ${outDir}`);
/** The next page's cursor of a list answer (written as JSON text). */
const cursorOf = (answer: { text: string }) =>
  (JSON.parse(answer.text) as { nextCursor: string | null }).nextCursor ?? undefined;
const page1 = await tickets.list(ownerScope, query({}), listDefaults.table);
await explain('list-table-default', () => tickets.list(ownerScope, query({}), listDefaults.table));
await explain('list-table-filtered', () =>
  tickets.list(
    ownerScope,
    query({ status: ['RESOLVED'], mediaPlatform: ['WAP', 'IGM'] }),
    listDefaults.table,
  ),
);
await explain('list-table-later-page', async () => {
  let cursor = cursorOf(page1);
  for (let i = 0; i < 20 && cursor; i += 1) {
    cursor = cursorOf(await tickets.list(ownerScope, query({ cursor }), listDefaults.table));
  }
  captured = [];
  return tickets.list(ownerScope, query({ cursor }), listDefaults.table);
});
// The inbox bench's table filters, each in its own file.
for (const [slug, filter] of Object.entries(tableFilters())) {
  const parsed = ticketFilterQuery.parse(Object.fromEntries(new URLSearchParams(`${filter}&pageSize=50`)));
  await explain(`list-filter-${slug}`, () => tickets.list(ownerScope, parsed, listDefaults.table));
}
await explain('list-inbox-agent', () =>
  tickets.list(agentScope, query({ sort: 'lastMessageAt' }), listDefaults.inbox),
);
await explain('list-inbox-all-open', () =>
  tickets.list(ownerScope, query({ sort: 'lastMessageAt', tab: 'all' }), listDefaults.inbox),
);
// By channel: the channel is tested on ticket_activity's index entries (migration 0037).
await explain('list-inbox-by-channel', () =>
  tickets.list(
    ownerScope,
    query({ sort: 'lastMessageAt', tab: 'all', mediaPlatform: ['WAP', 'WPU'] }),
    listDefaults.inbox,
  ),
);
// By agent: the table from its index by agent and creation, the inbox from the activity's
// assignee index (migration 0037).
await explain('list-table-by-agent', () =>
  tickets.list(ownerScope, query({ csId: [agent.id] }), listDefaults.table),
);
await explain('list-inbox-by-agent', () =>
  tickets.list(
    ownerScope,
    query({ sort: 'lastMessageAt', tab: 'all', csId: [agent.id] }),
    listDefaults.inbox,
  ),
);
await explain('tab-counters', () =>
  withTenant(db, client.id, (tx) => findTicketCounters(tx, client.id, agent.id)),
);
const roomPage = (of: { roomId: string } | { ticketId: number }, page: RoomPageQuery) =>
  withTenant(db, client.id, async (tx) =>
    roomPageOf(await rawRowsOf(tx, roomPageQuery(client.id, of, page)), page),
  );
await explain('room-newest-50', () => roomPage({ roomId: room.id }, { limit: 50 }));
await explain('room-newest-50-by-ticket', () => roomPage({ ticketId: room.ticketId }, { limit: 50 }));
await explain('room-older-page', async () => {
  const newest = await roomPage({ roomId: room.id }, { limit: 50 });
  captured = [];
  return roomPage({ roomId: room.id }, { before: Number(newest.rows[0]?.id), limit: 50 });
});
// The newest page as the chat call reads it (room-page-cache.ts): whole with its messages' keys
// when the server holds none; the fingerprint alone when the page held is current; and the page
// with only its newest message written, when the page held lacks it.
const checkedPage = (held: KeyedRoomPage | undefined) =>
  withTenant(db, client.id, async (tx) =>
    checkedPageOf(
      await rawRowsOf(tx, checkedNewestPageQuery(client.id, { ticketId: room.ticketId }, 50, held)),
      50,
      held,
    ),
  );
await explain('room-newest-keyed', () => checkedPage(undefined));
await explain('room-newest-checked-unchanged', async () => {
  const held = await checkedPage(undefined);
  captured = [];
  return checkedPage(held);
});
await explain('room-newest-checked-one-new', async () => {
  const held = await checkedPage(undefined);
  captured = [];
  return checkedPage({ ...held, fingerprint: 'older', rows: held.rows.slice(0, -1) });
});
for (const keyword of ['pesanan', 'garansi', 'refund', 'INV/2026/01234', seasonalKeyword]) {
  const slug = keyword.replace(/\W+/g, '-').toLowerCase();
  await explain(`search-${slug}`, () => search.search(ownerScope, query({ keyword })));
  // A seasonal keyword's days are read by a plpgsql function: the plans of its statements.
  const byDay = captured.find((entry) => entry.query.includes('inbox_keyword_dated_ticket_ids'));
  if (byDay) await explainCall(`search-${slug}-by-day`, byDay.query, byDay.params);
}
// A customer's full name, and a word of two letters (no trigram): the names are looked up in
// each client's distinct names, then their tickets by name (migration 0045); the plans of the
// lookup's statements beside the search's. And a phone number as Indonesians write it, read
// as its digits after the leading 0 over the tickets' phones' trigram index.
const customer = await one<{ name: string; phone: string }>(seededCustomerSql, [client.id]);
for (const [slug, keyword] of [
  ['customer-name', customer.name],
  ['two-letters-ab', 'ab'],
  ['phone-written-locally', customer.phone],
]) {
  await explain(`search-${slug}`, () => search.search(ownerScope, query({ keyword })));
  const ids = captured.find((entry) => /inbox_keyword_(dated_)?ticket_ids/.test(entry.query));
  if (ids) await explainCall(`search-${slug}-ids`, ids.query, ids.params);
}
// A quoted phrase is confirmed on the messages of each ticket whose words hold it.
await explain('search-phrase-pesanan-saya', () =>
  search.search(ownerScope, query({ keyword: '"pesanan saya"' })),
);
// A ticket's messages are read over its room's index, between its floor and the next ticket's
// (migration 0042): the giant room's tickets, each a stretch of its 100,000 messages.
const giantTickets = (
  await pool.query<{ id: string }>('select id from tickets where room_id = $1 order by id', [room.id])
).rows.map((row) => Number(row.id));
await explain('ticket-messages-snippets-giant-room', () =>
  withTenant(db, client.id, (tx) => findMessageHits(tx, client.id, giantTickets, 'pesanan')),
);
await explain('ticket-messages-download-giant-room', () =>
  withTenant(db, client.id, (tx) => findTicketExportDetails(tx, client.id, giantTickets)),
);

// Customers' messages into open tickets of the big client, one alone and eight together.
const customers = (
  await pool.query<{ account: string; external_id: string }>(
    `select i.channel_account_id as account, i.external_id
       from tickets t join chat_rooms r on r.id = t.room_id join contact_identities i on i.id = r.contact_identity_id
      where t.client_id = $1 and t.status = 'ASSIGNED' order by t.id desc limit 8`,
    [client.id],
  )
).rows;
const inboundItem = (customer: { account: string; external_id: string }, index: number) => ({
  account: customer.account,
  external_id: customer.external_id,
  name: `Pelanggan ${index}`,
  client_message_id: `explain-${Date.now()}-${index}`,
  text: `halo, pesanan nomor ${index} belum sampai`,
  attachments: [],
  preview: 'halo, pesanan belum sampai',
  sent_at: new Date().toISOString(),
});
const [first] = customers;
await explainCall(
  'inbound-one',
  `select inbox_receive_inbound($1::uuid, $2::uuid, $3, 'Pelanggan', null, null, null, null, $4,
     'halo, pesanan saya belum sampai', '[]'::jsonb, 'halo', now(), '{}'::text[], '1 day'::interval)`,
  [client.id, first.account, first.external_id, `explain-one-${Date.now()}`],
);
await explainCall(
  'inbound-batch-8',
  `select inbox_receive_inbound_batch($1::uuid, $2::jsonb, '{}'::text[], '1 day'::interval)`,
  [client.id, JSON.stringify(customers.map(inboundItem))],
);
await pool.end();
