import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { type Message, openSocket } from '../../test/socket-client';
import { startTestServer, type TestServer } from '../../test/test-server';
import { appendEvent, rooms } from '../events/outbox';
import { lateCommitMargin, maxReplayEvents } from './realtime-hub';

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
  server = await startTestServer();
  wsBase = server.url.replace('http', 'ws');
});
afterAll(async () => {
  await server?.close();
});

/** Waits until the hub has seen what a test did (a socket's close reaches the server a moment later). */
async function waitFor(done: () => boolean): Promise<void> {
  await eventually(done, 5_000, { intervalMs: 20, message: 'the hub did not catch up in time' });
}

const setStatus = (token: string, status: 'ONLINE' | 'OFFLINE') =>
  server.request('POST', '/api/identity/pushnotif/status', { token, body: { status } });

describe('/ws', () => {
  it('refuses a connection without a token or with a bad one', async () => {
    for (const url of [`${wsBase}/ws`, `${wsBase}/ws?token=nope`]) {
      const error = await openSocket(url).then(
        () => null,
        (failure: Error) => failure,
      );
      expect(error?.message).toContain('401');
    }
  });

  it('accepts the token in an Authorization header too', async () => {
    const { accessToken } = await server.login('owner@demo.test');
    const live = await openSocket(`${wsBase}/ws`, { authorization: `Bearer ${accessToken}` });
    const hello = await live.next((message) => message.type === 'hello');
    expect(hello.cursor).toMatch(/^\d+$/);
    live.socket.close();
  });

  it('delivers an event to every socket of the client, with an increasing cursor', async () => {
    const owner = await server.login('owner@demo.test');
    const agent = await server.login('agent1@demo.test');
    const ownerSocket = await openSocket(`${wsBase}/ws?token=${owner.accessToken}`);
    const agentSocket = await openSocket(`${wsBase}/ws?token=${agent.accessToken}`);
    const hello = await ownerSocket.next((message) => message.type === 'hello');
    await agentSocket.next((message) => message.type === 'hello');

    await setStatus(agent.accessToken, 'OFFLINE');
    await setStatus(agent.accessToken, 'ONLINE');
    const isStatus = (status: string) => (message: Message) =>
      message.topic === 'agent.status_changed' && message.payload?.status === status;
    const first = await ownerSocket.next(isStatus('OFFLINE'));
    const second = await ownerSocket.next(isStatus('ONLINE'));
    await agentSocket.next(isStatus('ONLINE'));
    expect(BigInt(first.cursor!)).toBeGreaterThan(BigInt(hello.cursor!));
    expect(BigInt(second.cursor!)).toBeGreaterThan(BigInt(first.cursor!));
    expect(first.payload).toMatchObject({ status: 'OFFLINE' });
    ownerSocket.socket.close();
    agentSocket.socket.close();
  });

  it("keeps one client's events from another client's sockets", async () => {
    const { createClientWithUser } = await import('../../test/factories');
    const other = await createClientWithUser(server.database.db);
    const otherToken = (await server.login(other.email)).accessToken;
    const otherSocket = await openSocket(`${wsBase}/ws?token=${otherToken}`);
    await otherSocket.next((message) => message.type === 'hello');
    const agent = await server.login('agent2@demo.test');
    const agentSocket = await openSocket(`${wsBase}/ws?token=${agent.accessToken}`);
    await setStatus(agent.accessToken, 'OFFLINE');
    await agentSocket.next((message) => message.topic === 'agent.status_changed');
    await setStatus(otherToken, 'OFFLINE');
    await otherSocket.next((message) => message.topic === 'agent.status_changed');
    const foreign = otherSocket.messages.filter(
      (message) => message.payload?.userId && message.payload.userId !== other.userId,
    );
    expect(foreign).toEqual([]);
    otherSocket.socket.close();
    agentSocket.socket.close();
  });

  it('replays what a reconnecting client missed after its cursor', async () => {
    const owner = await server.login('owner@demo.test');
    const first = await openSocket(`${wsBase}/ws?token=${owner.accessToken}`);
    const hello = await first.next((message) => message.type === 'hello');
    first.socket.close();
    await first.closed;

    const agent = await server.login('agent1@demo.test');
    await setStatus(agent.accessToken, 'OFFLINE');
    await setStatus(agent.accessToken, 'ONLINE');

    const again = await openSocket(`${wsBase}/ws?token=${owner.accessToken}&cursor=${hello.cursor}`);
    const replayed = await again.next(
      (message) => message.topic === 'agent.status_changed' && message.payload?.status === 'ONLINE',
    );
    const events = again.messages.filter((message) => message.type === 'event');
    const statuses = events
      .filter((message) => message.topic === 'agent.status_changed')
      .filter((message) => BigInt(message.cursor!) > BigInt(hello.cursor!))
      .map((m) => m.payload?.status);
    expect(statuses).toEqual(['OFFLINE', 'ONLINE']);
    // A little before the cursor comes again (late commits); never further than the margin.
    for (const event of events) {
      expect(BigInt(event.cursor!)).toBeGreaterThan(BigInt(hello.cursor!) - lateCommitMargin);
    }
    const resumed = await again.next((message) => message.type === 'hello');
    expect(BigInt(resumed.cursor!)).toBeGreaterThanOrEqual(BigInt(replayed.cursor!));
    again.socket.close();
  });

  // Two writers at once on PostgreSQL (PGlite runs one transaction at a time).
  it.skipIf(!process.env.DATABASE_URL)(
    'delivers an event that commits after one with a higher cursor',
    async () => {
      const owner = await server.login('owner@demo.test');
      const live = await openSocket(`${wsBase}/ws?token=${owner.accessToken}`);
      await live.next((message) => message.type === 'hello');
      const clientId = server.demoClientId!;
      const event = (label: string) => ({
        clientId,
        topic: 'test.order',
        rooms: [rooms.client(clientId)],
        payload: { label },
      });
      let releaseSlow!: () => void;
      const slowMayCommit = new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      let slowWrote!: () => void;
      const slowHasCursor = new Promise<void>((resolve) => {
        slowWrote = resolve;
      });
      const slow = server.database.db.transaction(async (tx) => {
        await appendEvent(tx, event('slow'));
        slowWrote();
        await slowMayCommit;
      });
      await slowHasCursor;
      await server.database.db.transaction((tx) => appendEvent(tx, event('fast')));
      await live.next((message) => message.payload?.label === 'fast');
      releaseSlow();
      await slow;
      const late = await live.next((message) => message.payload?.label === 'slow');
      const fast = live.messages.find((message) => message.payload?.label === 'fast');
      expect(BigInt(late.cursor!)).toBeLessThan(BigInt(fast!.cursor!));
      live.socket.close();
    },
  );

  it('tells a client whose cursor is too far behind to resync', async () => {
    const owner = await server.login('owner@demo.test');
    const probe = await openSocket(`${wsBase}/ws?token=${owner.accessToken}`);
    const hello = await probe.next((message) => message.type === 'hello');
    probe.socket.close();
    // More events than a replay may carry.
    await server.database.query(
      `insert into outbox_events (client_id, topic, rooms, payload)
       select $1::uuid, 'test.filler', array[$3::text], '{}'::jsonb from generate_series(1, $2::int)`,
      [server.demoClientId, maxReplayEvents + 5, `client:${server.demoClientId}`],
    );
    const late = await openSocket(`${wsBase}/ws?token=${owner.accessToken}&cursor=${hello.cursor}`);
    const resync = await late.next((message) => message.type === 'resync');
    expect(BigInt(resync.cursor!)).toBeGreaterThan(BigInt(hello.cursor!));
    expect(late.messages.some((message) => message.topic === 'test.filler')).toBe(false);
    late.socket.close();
  });

  it('closes the socket of a session that signs out', async () => {
    const pair = await server.login('supervisor@demo.test');
    const live = await openSocket(`${wsBase}/ws?token=${pair.accessToken}`);
    await live.next((message) => message.type === 'hello');
    await server.request('POST', '/api/identity/auth/logout', { token: pair.accessToken, body: {} });
    expect(await live.closed).toBe(4401);
  });

  it("finds an event's sockets by room, and forgets a closed socket's rooms", async () => {
    const { createClientWithUser } = await import('../../test/factories');
    const other = await createClientWithUser(server.database.db);
    const token = (await server.login(other.email)).accessToken;
    const theirRooms = [rooms.client(other.clientId), rooms.user(other.userId)];
    const sockets = await Promise.all([1, 2].map(() => openSocket(`${wsBase}/ws?token=${token}`)));
    await Promise.all(sockets.map((socket) => socket.next((message) => message.type === 'hello')));
    expect(theirRooms.map((room) => server.hub.socketsIn(room))).toEqual([2, 2]);
    await setStatus(token, 'OFFLINE');
    const heard = await Promise.all(
      sockets.map((socket) => socket.next((message) => message.topic === 'agent.status_changed')),
    );
    expect(heard[0].cursor).toBe(heard[1].cursor);
    sockets[0].socket.close();
    await sockets[0].closed;
    await waitFor(() => server.hub.socketsIn(theirRooms[0]) === 1);
    sockets[1].socket.close();
    await sockets[1].closed;
    await waitFor(() => theirRooms.every((room) => server.hub.socketsIn(room) === undefined));
  });

  it('refuses ticket rooms until a module allows them, and answers ping', async () => {
    const owner = await server.login('owner@demo.test');
    const live = await openSocket(`${wsBase}/ws?token=${owner.accessToken}`);
    live.socket.send(JSON.stringify({ type: 'subscribe', room: 'ticket:123' }));
    const refusal = await live.next((message) => message.type === 'error');
    expect(refusal.message).toContain('ticket:123');
    live.socket.send(JSON.stringify({ type: 'ping' }));
    await live.next((message) => message.type === 'pong');
    live.socket.close();
  });
});
