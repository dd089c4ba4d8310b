// Bench data generator: one large client with N tickets and M messages, three smaller clients
// beside it, 200 agents, every channel and state, realistic Indonesian and English text, and
// one room with 100,000 messages. Set-based SQL on PostgreSQL; reruns replace what it made.
//
//   npm run bench:seed -- --tickets 1000000 --messages 10000000
//   npm run bench:seed -- --tickets 10000            # the CI smoke preset (messages = 10 × tickets)
//
// The database is BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/bench
// (created when missing). Its name must contain "bench" or "ci_": the generator empties it.

import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/modules/identity/password-hasher';
import { benchDatabaseUrl, ensureDatabase, parseFlags } from './lib/bench-db';
import { fillClient } from './lib/seed-client';
import { createVocabularyTables } from './lib/seed-vocabulary';
import { benchPassword, bigClientSlug } from './seed-names';

export { benchPassword, bigClientSlug, giantRoomName } from './seed-names';

// Importing this file for its names must never empty a database: it runs only as the entry point.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await seed();

async function seed(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const ticketCount = Number(flags.tickets ?? 10_000);
  const messageCount = Number(flags.messages ?? ticketCount * 10);
  const agentCount = Number(flags.agents ?? 200);
  const url = benchDatabaseUrl();

  const started = performance.now();
  const step = async (label: string, work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    console.log(`  ${label.padEnd(44)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };

  await ensureDatabase(url);
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
  await handle.migrate();
  await handle.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string, values?: unknown[]) => client.query(text, values);
  console.log(
    `bench:seed ${url.replace(/:[^:@/]*@/, ':***@')}: ${ticketCount} tickets, ${messageCount} messages, ${agentCount} agents`,
  );

  // The load runs without row triggers (the counters are rebuilt once at the end) and without
  // foreign-key checks: every reference is made here from rows made here.
  await q(`set session_replication_role = replica`);
  await q(`set maintenance_work_mem = '1GB'`);
  await q(`set work_mem = '256MB'`);
  await q(`set max_parallel_maintenance_workers = 2`);
  await q(`set synchronous_commit = off`);

  await step('empty the bench database', () =>
    q(`truncate clients, outbox_events restart identity cascade`).catch(() => q(`truncate clients cascade`)),
  );

  const passwordHash = await hashPassword(benchPassword);
  const smallTickets = Math.max(500, Math.floor(ticketCount / 50));
  const tenants = [
    {
      slug: bigClientSlug,
      name: 'Toko Besar Nusantara',
      tickets: ticketCount,
      messages: messageCount,
      agents: agentCount,
    },
    ...['bench-kopi', 'bench-batik', 'bench-gadget'].map((slug, i) => ({
      slug,
      name: ['Kopi Kenangan Lama', 'Batik Pekalongan Jaya', 'Gadget Murah Sejahtera'][i],
      tickets: smallTickets,
      messages: smallTickets * 8,
      agents: 10,
    })),
  ];

  // Indexes on the two big tables are dropped during the load and built again afterwards, from
  // their own definitions: building once is far faster than keeping them up row by row.
  // Their definitions are kept in a table first, so that a run stopped half-way leaves what the
  // next run needs to build them again.
  await q(
    `create table if not exists bench_dropped_indexes (name text primary key, definition text not null)`,
  );
  await q(
    `insert into bench_dropped_indexes (name, definition)
   select indexname, indexdef from pg_indexes i
    where schemaname = 'public' and tablename in ('messages', 'tickets', 'ticket_activity', 'ticket_search', 'ticket_customer_names', 'chat_rooms', 'contacts', 'contact_identities')
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
   on conflict (name) do nothing`,
  );
  const indexDefinitions = (await q(`select name, definition from bench_dropped_indexes order by name`))
    .rows as Array<{
    name: string;
    definition: string;
  }>;
  await step(`drop ${indexDefinitions.length} secondary indexes`, async () => {
    for (const index of indexDefinitions) await q(`drop index if exists "${index.name}"`);
  });

  await createVocabularyTables(q);

  for (const tenant of tenants) await fillClient(q, step, tenant, passwordHash);

  // Triggers are off during the load (statement triggers too): each ticket's activity row
  // (migration 0034) is made from the tickets as loaded.
  await step('ticket activity', () =>
    q(`insert into ticket_activity (id, client_id, status, assignee_id, last_message_at, expires_at, channel, created_at)
       select id, client_id, status, assignee_id, last_message_at, expires_at, channel, created_at from tickets order by id`),
  );
  // And each client's distinct customer names, which a search looks names up in (0045).
  await step('customer names', () =>
    q(`insert into ticket_customer_names (client_id, name)
       select distinct client_id, lower(customer_name) from tickets order by 1, 2`),
  );

  await step(`rebuild ${indexDefinitions.length} indexes`, async () => {
    for (const index of indexDefinitions) await q(index.definition);
    await q(`drop table bench_dropped_indexes`);
  });
  await step('open-ticket counters', async () => {
    await q(`delete from ticket_counters`);
    await q(`
    insert into ticket_counters (client_id, scope, count)
    select client_id, scope, count(*) from (
      select client_id, 'all' as scope from tickets where status in ('UNASSIGNED','ASSIGNED')
      union all
      select client_id, case when assignee_id is null then 'unassigned' else 'user:' || assignee_id end
        from tickets where status in ('UNASSIGNED','ASSIGNED')) s
    group by client_id, scope`);
  });
  await q(`set session_replication_role = origin`);
  await step('vacuum analyze', () => q(`vacuum analyze`));

  const totals = (
    await q(`select (select count(*) from tickets) as tickets, (select count(*) from messages) as messages,
                  (select count(*) from users) as users, pg_size_pretty(pg_database_size(current_database())) as size`)
  ).rows[0];
  console.log(
    `done in ${((performance.now() - started) / 1000).toFixed(0)} s: ${totals.tickets} tickets, ${totals.messages} messages, ${totals.users} users, database ${totals.size}`,
  );
  console.log(`sign in as agent1@${bigClientSlug}.test (or owner@, supervisor@) with ${benchPassword}`);
  await client.end();
}
