// The bare limit: the least an HTTP handler on this machine and database can do. A Fastify 5
// process with a pool of 10, one indexed SELECT on the real tickets and one INSERT of a
// message-shaped row. No auth, no row-level security, no validation beyond parsing: every
// figure of the inbox bench is read against it.
//
// Beside them, the least a page of the same size can cost: 50 tickets' stored JSON
// (`summary_view`, the very text the lists send) read newest first from one index range, and
// the newest 50 messages of a room, each with one statement and no more. They show how much
// of a list page's or a room's cost is reading and sending its rows at all, and how much is
// the product's own.
//
// With BARE_COMPRESS=1 it gzips its answers as the product does (platform/http/compression.ts)
// for a client that asks, so a bench asking as a browser compares pages sent the same way.
//
//   PORT=4100 DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npx tsx bench/lib/bare-server.ts
import Fastify from 'fastify';
import pg from 'pg';
import { registerCompression } from '../../apps/server/src/platform/http/compression';

const port = Number(process.env.PORT ?? 4100);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

// Random page reads priced as the cached reads they are, as the product's tenant connections
// do (db/tenant-connections.ts): at the default 4 the bare room walked the messages' primary
// key backwards past other rooms' messages at 10k and 100k tickets (15–54 ms) instead of
// reading its own index. The bare SELECT and INSERT do not depend on it.
// It goes into the URL's `options`, which the bench already uses for statement_timeout (a pool
// option of the same name would be overridden by the URL's).
const withPlannerOptions = new URL(databaseUrl);
withPlannerOptions.searchParams.set(
  'options',
  `${withPlannerOptions.searchParams.get('options') ?? ''} -c random_page_cost=1.1`.trim(),
);
const pool = new pg.Pool({ connectionString: withPlannerOptions.toString(), max: 10 });
pool.on('error', () => undefined);

await pool.query(`
  create table if not exists bench_bare_inserts (
    id bigint generated always as identity primary key,
    client_id uuid,
    room_id uuid,
    text text,
    created_at timestamptz not null default now()
  )`);
// Each run starts from an empty table, so its index is the same size from run to run.
await pool.query('truncate bench_bare_inserts');

const app = Fastify({ logger: false });
if (process.env.BARE_COMPRESS === '1') registerCompression(app);

app.get('/api/health', async () => ({ status: 'ok' }));

app.get<{ Querystring: { id?: string } }>('/bare/select', async (request, reply) => {
  const id = Number(request.query.id);
  if (!Number.isSafeInteger(id)) return reply.code(400).send({ message: 'id must be an integer' });
  const result = await pool.query(
    'select id, status, last_message_at, customer_name from tickets where id = $1',
    [id],
  );
  return { row: result.rows[0] ?? null };
});

app.get<{ Querystring: { clientId?: string; status?: string } }>('/bare/page', async (request, reply) => {
  const { clientId, status } = request.query;
  if (!clientId || !status) return reply.code(400).send({ message: 'clientId and status are required' });
  const result = await pool.query(
    `select coalesce(string_agg(page.summary_view, ',' order by page.created_at desc nulls last, page.id desc nulls last), '') as views
       from (select id, created_at, summary_view from tickets
              where client_id = $1 and status = $2
              order by created_at desc nulls last, id desc nulls last limit 50) page`,
    [clientId, status],
  );
  return reply.type('application/json').send(`{"content":[${result.rows[0].views}]}`);
});

app.get<{ Querystring: { roomId?: string } }>('/bare/room', async (request, reply) => {
  const { roomId } = request.query;
  if (!roomId) return reply.code(400).send({ message: 'roomId is required' });
  const result = await pool.query(
    `select id, ticket_id, kind, direction, sender_type, sender_id, sender_name, text, attachments,
            quoted_message_id, status, created_at
       from messages where room_id = $1 order by id desc limit 50`,
    [roomId],
  );
  return { messages: result.rows };
});

app.post<{ Body: { clientId?: string; roomId?: string; text?: string } }>(
  '/bare/insert',
  async (request, reply) => {
    const { clientId = null, roomId = null, text = '' } = request.body ?? {};
    const result = await pool.query(
      'insert into bench_bare_inserts (client_id, room_id, text) values ($1, $2, $3) returning id',
      [clientId, roomId, text],
    );
    return reply.code(201).send({ id: Number(result.rows[0].id) });
  },
);

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await app.listen({ port, host: '127.0.0.1' });
