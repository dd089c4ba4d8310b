// The bare realtime pipeline, the floor the product's figures are compared with: Fastify,
// @fastify/websocket and pg, nothing else. A visitor socket's message becomes one INSERT
// with pg_notify in the same statement; one LISTEN connection hears it and pushes it to the
// subscribed agent's sockets. No tenant, no token, no ticket, no outbox table: what is left
// is what any design pays. Frames have the product's shapes, so the same workers drive both.
//
// Started by the realtime bench through processes.ts startScriptProcess, with PORT and
// DATABASE_URL (a database of its own; its one table is made here).
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import pg from 'pg';
import type { WebSocket } from 'ws';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const channel = 'bare_realtime_events';

const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.POOL_SIZE ?? 10) });
await pool.query(`create table if not exists bare_realtime_messages (
  id bigserial primary key,
  conversation integer not null,
  text text not null,
  created_at timestamptz not null default now())`);

const agents = new Map<number, Set<WebSocket>>();
const listener = new pg.Client({ connectionString: databaseUrl });
await listener.connect();
await listener.query(`listen ${channel}`);
listener.on('notification', (notification) => {
  const event = JSON.parse(notification.payload ?? '{}') as { agent: number; id: string; text: string };
  const frame = JSON.stringify({
    type: 'event',
    cursor: event.id,
    topic: 'inbox.message_created',
    payload: { message: { id: Number(event.id), text: event.text } },
    at: new Date().toISOString(),
  });
  for (const socket of agents.get(event.agent) ?? []) socket.send(frame);
});

const app = Fastify({ logger: false });
await app.register(websocket);

app.get('/api/health', async () => ({ status: 'ok' }));

app.get('/ws', { websocket: true }, (socket, request) => {
  const agent = Number((request.query as { agent?: string }).agent);
  const set = agents.get(agent) ?? new Set<WebSocket>();
  set.add(socket);
  agents.set(agent, set);
  socket.on('close', () => set.delete(socket));
  socket.send(JSON.stringify({ type: 'hello', cursor: '0' }));
});

app.get('/api/livechat/ws', { websocket: true }, (socket, request) => {
  const query = request.query as { conversation?: string; agent?: string };
  const conversation = Number(query.conversation);
  const agent = Number(query.agent);
  // One message at a time per socket, as the product does, so a customer's order holds.
  let chain: Promise<void> = Promise.resolve();
  socket.on('message', (data) => {
    chain = chain.then(async () => {
      const frame = JSON.parse(data.toString()) as { type: string; id: string; body: string };
      if (frame.type !== 'message') return;
      try {
        const result = await pool.query<{ id: string; created_at: Date }>(
          `with inserted as (
             insert into bare_realtime_messages (conversation, text) values ($1, $2) returning id, created_at)
           select id, created_at,
                  pg_notify($4, json_build_object('agent', $3::int, 'id', id, 'text', $2::text)::text)
             from inserted`,
          [conversation, frame.body, agent, channel],
        );
        const row = result.rows[0];
        socket.send(
          JSON.stringify({
            type: 'ack',
            id: frame.id,
            serverId: Number(row.id),
            ts: row.created_at.toISOString(),
          }),
        );
      } catch {
        socket.send(
          JSON.stringify({ type: 'error', id: frame.id, code: 'unavailable', message: 'insert failed' }),
        );
      }
    });
  });
  socket.send(JSON.stringify({ type: 'hello', visitorId: String(conversation), lastServerId: 0 }));
});

await app.listen({ port: Number(process.env.PORT ?? 4620), host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  await listener.end();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
