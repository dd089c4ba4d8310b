import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWidget,
  openVisitorSocket,
  registerVisitor,
} from '../../modules/livechat/visitor.test-support';
import { eventually } from '../../test/eventually';
import { createClientWithUser } from '../../test/factories';
import { type Message, openSocket } from '../../test/socket-client';
import { startTestServer, type TestServer } from '../../test/test-server';
import { maxCatchUpEvents } from './event-bus';
import { appendEvent, rooms } from './outbox';

// The process hears committed events on one listening connection. When it drops, PostgreSQL
// keeps no notification for it: the bus reads what it missed from the outbox once it listens
// again, or, when too much was missed, has every socket start over.
describe.skipIf(!process.env.DATABASE_URL)('a dropped listening connection (PostgreSQL)', () => {
  let server: TestServer;
  let client: { clientId: string; userId: string; email: string };
  let token: string;
  let wsBase: string;

  beforeAll(async () => {
    // Three seconds to write what the process must miss before it listens again.
    server = await startTestServer({ env: { LISTEN_RECONNECT_MS: '3000' } });
    client = await createClientWithUser(server.database.db);
    token = (await server.login(client.email)).accessToken;
    wsBase = server.url.replace(/^http/, 'ws');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Ends the server's listening connection and waits until PostgreSQL has let it go. */
  async function dropListener(): Promise<void> {
    const listening = `select pid from pg_stat_activity
                        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`;
    const before = await server.database.query<{ pid: number }>(listening);
    expect(before).toHaveLength(1);
    await server.database.query('select pg_terminate_backend($1)', [before[0].pid]);
    await eventually(
      async () => !(await server.database.query(listening)).some((row) => row.pid === before[0].pid),
      5_000,
      { intervalMs: 10, message: 'the listening backend did not end' },
    );
  }

  async function waitFor(done: () => boolean): Promise<void> {
    await eventually(done, 10_000, { intervalMs: 20, message: 'not caught up in time' });
  }

  const ping = (n: number) =>
    appendEvent(server.database.db, {
      clientId: client.clientId,
      topic: 'test.ping',
      rooms: [rooms.client(client.clientId)],
      payload: { n },
    });
  const pings = (messages: Message[]) =>
    messages.filter((message) => message.topic === 'test.ping').map((message) => message.payload?.n);

  it('hands sockets the events committed while it was down, each once and in order', async () => {
    const live = await openSocket(`${wsBase}/ws?token=${token}`);
    await live.next((message) => message.type === 'hello');
    await ping(0);
    await live.next((message) => message.payload?.n === 0);
    const { catchUps, caughtUp } = server.bus.stats;

    await dropListener();
    for (const n of [1, 2, 3]) await ping(n);
    // Back three seconds later: the three come from the outbox, not from notifications.
    await waitFor(() => pings(live.messages).length >= 4);
    expect(server.bus.stats.catchUps).toBe(catchUps + 1);
    expect(server.bus.stats.caughtUp - caughtUp).toBeGreaterThanOrEqual(3);

    // Listening again: the next event is heard as usual.
    await ping(4);
    await live.next((message) => message.payload?.n === 4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pings(live.messages)).toEqual([0, 1, 2, 3, 4]);
    expect(server.bus.stats.catchUps).toBe(catchUps + 1);
    live.socket.close();
  });

  it('has every socket start over when more were missed than it catches up', async () => {
    const live = await openSocket(`${wsBase}/ws?token=${token}`);
    await live.next((message) => message.type === 'hello');
    const widget = await createWidget(server.database.db, client.clientId);
    const visitor = await registerVisitor(server, widget);
    const visitorSocket = await openVisitorSocket(
      server,
      { widgetId: widget.id, token: visitor.token },
      { origin: widget.domain },
    );
    await visitorSocket.next((frame) => frame.type === 'hello');
    const leaving = await server.login(client.email);
    const leavingSocket = await openSocket(`${wsBase}/ws?token=${leaving.accessToken}`);
    await leavingSocket.next((message) => message.type === 'hello');
    const { missed, catchUps } = server.bus.stats;

    await dropListener();
    const [{ newest }] = await server.database.query<{ newest: string }>(
      `with written as (
         insert into outbox_events (client_id, topic, rooms, payload)
         select $1, 'test.flood', array[$2], jsonb_build_object('n', n) from generate_series(1, $3) n
         returning id)
       select max(id)::text as newest from written`,
      [client.clientId, rooms.client(client.clientId), maxCatchUpEvents + 10],
    );
    // Signed out while the process could not hear it: its socket still closes.
    const signedOut = await server.request('POST', '/api/identity/auth/logout', {
      token: leaving.accessToken,
      body: {},
    });
    expect(signedOut.status).toBeLessThan(300);
    expect(server.bus.stats.catchUps).toBe(catchUps);

    const resync = await live.next((message) => message.type === 'resync', 10_000);
    expect(BigInt(resync.cursor ?? '0')).toBeGreaterThanOrEqual(BigInt(newest));
    expect(live.messages.filter((message) => message.topic === 'test.flood')).toHaveLength(0);
    // A widget reconnects on its own and resumes from the last message it has.
    expect(await visitorSocket.closed).toBe(1012);
    expect(await leavingSocket.closed).toBe(4401);
    expect(server.bus.stats.missed).toBe(missed + 1);

    // And the bus listens again.
    await ping(5);
    await live.next((message) => message.payload?.n === 5);
    live.socket.close();
  });
});
