import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { startTestServer, type TestServer } from '../../test/test-server';
import type { DeliveredEvent } from '../events/event-bus';
import { appendEvent } from '../events/outbox';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

describe('job queue', () => {
  it('retries a failing job with backoff until it succeeds', async () => {
    const attempts: number[] = [];
    await server.queue.register<{ label: string }>({
      name: 'test.flaky',
      retryLimit: 3,
      retryDelay: 1,
      retryBackoff: true,
      handler: async (data) => {
        attempts.push(Date.now());
        expect(data.label).toBe('hello');
        if (attempts.length < 3) throw new Error('provider unavailable');
      },
    });
    const id = await server.queue.send('test.flaky', { label: 'hello' });
    const job = await eventually(async () => {
      const found = await server.queue.getJob('test.flaky', id!);
      return found?.state === 'completed' ? found : undefined;
    }, 30_000);
    expect(job.retryCount).toBe(2);
    expect(attempts).toHaveLength(3);
    // Exponential backoff from a 1 s delay: the first retry waits at least 1 s, the second at
    // least 2 s (without backoff both would wait about 1 s).
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(950);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(1950);
  });

  it('keeps the platform and identity schedules', async () => {
    expect(await server.queue.scheduledNames()).toEqual(
      expect.arrayContaining(['identity.prune-sessions', 'platform.prune-events']),
    );
  });
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
