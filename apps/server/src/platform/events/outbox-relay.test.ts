import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/test-server';
import type { DeliveredEvent } from './event-bus';
import { appendEvent, appendEvents, eventChannel } from './outbox';
import { OutboxRelay, topicOfNotification } from './outbox-relay';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('outbox', () => {
  it('hands a committed event to its subscribed job (sign-in is recorded on the user)', async () => {
    const before = await server.database.db.select().from(users).where(eq(users.email, 'agent2@demo.test'));
    expect(before[0].lastSignInAt).toBeNull();
    await server.login('agent2@demo.test');
    const signedIn = await eventually(async () => {
      const [row] = await server.database.db.select().from(users).where(eq(users.email, 'agent2@demo.test'));
      return row.lastSignInAt;
    });
    expect(signedIn.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('delivers events of committed transactions only', async () => {
    const seen: DeliveredEvent[] = [];
    const unsubscribe = server.bus.subscribe((event) => {
      if (event.topic.startsWith('test.outbox')) seen.push(event);
    });
    const clientId = server.demoClientId!;
    await expect(
      withTenant(server.database.db, clientId, async (tx) => {
        await appendEvent(tx, { clientId, topic: 'test.outbox.rolled-back', rooms: [], payload: {} });
        throw new Error('the service failed after writing');
      }),
    ).rejects.toThrow('the service failed');
    await withTenant(server.database.db, clientId, (tx) =>
      appendEvent(tx, { clientId, topic: 'test.outbox.committed', rooms: [], payload: { n: 1 } }),
    );
    await eventually(async () => seen.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    unsubscribe();
    expect(seen.map((event) => event.topic)).toEqual(['test.outbox.committed']);
  });

  it('reads the topic of each notification as PostgreSQL writes it, so socket-only events wait for the sweep', async () => {
    const clientId = server.demoClientId!;
    const notifications: string[] = [];
    const unlisten = await server.database.listen(eventChannel, (text) => {
      if (text.includes('test.outbox.') || !text.startsWith('{')) notifications.push(text);
    });
    try {
      const append = (topic: string, payload: Record<string, unknown>) =>
        withTenant(server.database.db, clientId, (tx) =>
          appendEvent(tx, { clientId, topic, rooms: [], payload }),
        );
      await append('test.outbox.sweep-only', { topic: 'inside the payload' });
      const largeId = await append('test.outbox.large-topic', { text: 'x'.repeat(20_000) });
      await eventually(async () => notifications.length >= 2);
      const inline = notifications.find((text) => text.startsWith('{'))!;
      // PostgreSQL's json_build_object spaces the colons; reading `"topic":"…"` alone missed
      // every topic, and each event woke the relay for a claim of its own.
      expect(inline).toContain('"topic" : "test.outbox.sweep-only"');
      expect(topicOfNotification(inline)).toBe('test.outbox.sweep-only');
      // Too large to inline: only the id, so the relay cannot tell and looks.
      expect(notifications).toContain(String(largeId));
      expect(topicOfNotification(String(largeId))).toBeUndefined();
    } finally {
      await unlisten();
    }
  });

  it('relays a backlog in full batches, then ends its run at the first batch that is not full', async () => {
    const clientId = server.demoClientId!;
    const sizes: number[] = [];
    await server.queue.register({
      name: 'test.relay-batches',
      handler: async (data) => {
        sizes.push((data as { events: unknown[] }).events.length);
      },
    });
    server.relay.subscribe('test.outbox.batched', 'test.relay-batches', { immediate: false, batch: true });
    const events = Array.from({ length: 250 }, (_, n) => ({
      clientId,
      topic: 'test.outbox.batched',
      rooms: [],
      payload: { n },
    }));
    const ids = await withTenant(server.database.db, clientId, (tx) => appendEvents(tx, events));
    // One call drains the backlog: a batch of 100 claims the next, the last (not full) ends it.
    await server.relay.relayNow();
    const [row] = await server.database.query<{ waiting: number }>(
      'select count(*)::int as waiting from outbox_events where id = any($1::bigint[]) and relayed_at is null',
      [ids.map(String)],
    );
    expect(row.waiting).toBe(0);
    await eventually(async () => sizes.reduce((sum, size) => sum + size, 0) === 250);
    expect(Math.max(...sizes)).toBe(100);
  });

  /** Events of a new topic, written in one transaction; their ids. */
  const appendMany = (topic: string, count: number) => {
    const clientId = server.demoClientId!;
    const events = Array.from({ length: count }, (_, n) => ({ clientId, topic, rooms: [], payload: { n } }));
    return withTenant(server.database.db, clientId, (tx) => appendEvents(tx, events));
  };
  const waitingOf = async (ids: bigint[]) => {
    const [row] = await server.database.query<{ waiting: number }>(
      'select count(*)::int as waiting from outbox_events where id = any($1::bigint[]) and relayed_at is null',
      [ids.map(String)],
    );
    return row.waiting;
  };

  it('hands each event to its queue once when two processes relay at once', async () => {
    const handed: string[] = [];
    await server.queue.register({
      name: 'test.relay-once',
      concurrency: 8,
      handler: async (data) => {
        handed.push((data as { eventId: string }).eventId);
      },
    });
    server.relay.subscribe('test.outbox.once', 'test.relay-once');
    // A second process's relay: the same subscription, on the same database and queue.
    const other = new OutboxRelay(server.database, server.queue, server.app.log);
    other.subscribe('test.outbox.once', 'test.relay-once');
    const ids = await appendMany('test.outbox.once', 240);
    await Promise.all([server.relay.relayNow(), other.relayNow(), server.relay.relayNow(), other.relayNow()]);
    expect(await waitingOf(ids)).toBe(0);
    await eventually(async () => handed.length >= 240);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handed).toHaveLength(240);
    expect(new Set(handed)).toEqual(new Set(ids.map(String)));
  });

  it('leaves the events to the next run, and writes none of their jobs, when the jobs cannot be written', async () => {
    const handed: string[] = [];
    let failing = true;
    await server.queue.register({
      name: 'test.relay-retried',
      handler: async (data) => {
        handed.push((data as { eventId: string }).eventId);
      },
    });
    // A payload the job queue cannot write (a BigInt has no JSON) while `failing` holds.
    server.relay.subscribe('test.outbox.retried', 'test.relay-retried', {
      select: (payload) => (failing ? { ...payload, unwritable: 1n } : payload),
    });
    const ids = await appendMany('test.outbox.retried', 3);
    await server.relay.relayNow();
    expect(await waitingOf(ids)).toBe(3);
    const [jobs] = await server.database.query<{ n: number }>(
      "select count(*)::int as n from pgboss.job where name = 'test.relay-retried'",
    );
    expect(jobs.n).toBe(0);
    failing = false;
    await server.relay.relayNow();
    expect(await waitingOf(ids)).toBe(0);
    await eventually(async () => handed.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(handed).toEqual(ids.map(String));
  });

  it('goes round once more after a failed run when it was asked to during that run', async () => {
    let failOnce = true;
    let askedDuringRun: Promise<void> | undefined;
    await server.queue.register({ name: 'test.relay-again', handler: async () => {} });
    server.relay.subscribe('test.outbox.again', 'test.relay-again', {
      select: (payload) => {
        if (!failOnce) return payload;
        failOnce = false;
        // Another caller (a notification, the sweep) asks while this run is under way.
        askedDuringRun = server.relay.relayNow();
        return { ...payload, unwritable: 1n };
      },
    });
    const ids = await appendMany('test.outbox.again', 2);
    await server.relay.relayNow();
    expect(askedDuringRun).toBeDefined();
    await askedDuringRun;
    expect(await waitingOf(ids)).toBe(0);
  });

  it('delivers an event too large for a notification by reading it back', async () => {
    const clientId = server.demoClientId!;
    const text = 'x'.repeat(20_000);
    const received = new Promise<DeliveredEvent>((resolve) => {
      const unsubscribe = server.bus.subscribe((event) => {
        if (event.topic !== 'test.outbox.large') return;
        unsubscribe();
        resolve(event);
      });
    });
    const id = await withTenant(server.database.db, clientId, (tx) =>
      appendEvent(tx, {
        clientId,
        topic: 'test.outbox.large',
        rooms: [`client:${clientId}`],
        payload: { text },
      }),
    );
    const event = await received;
    expect(event.cursor).toBe(id);
    expect(event.payload.text).toBe(text);
    expect(event.rooms).toEqual([`client:${clientId}`]);
  });
});
