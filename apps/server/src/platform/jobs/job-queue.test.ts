import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/test-server';
import { JobQueue, nextJobId, runInLanes } from './job-queue';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/**
 * A process that only sends, with the queue registered and started, and one that will work
 * it, not yet started: jobs written before the worker starts wait as a backlog.
 */
async function senderAndWorker(name: string, pollingIntervalSeconds: number) {
  const silent = server.app.log;
  const sender = new JobQueue(server.database, silent, { runWorkers: false });
  const worker = new JobQueue(server.database, silent, { runWorkers: true, pollingIntervalSeconds });
  await sender.start();
  await sender.register({ name, handler: async () => undefined });
  return { sender, worker };
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

  it('drains a backlog at once instead of one fetch a polling interval, and fails a job of a fetch on its own', async () => {
    // Jobs sent while no process works the queue, then a worker polling every 2 s: the old
    // worker took one job a fetch and waited the interval after each, so these 40 would have
    // taken 80 s. A retry is due after its delay, so it waits for a poll.
    const { sender, worker } = await senderAndWorker('test.backlog', 2);
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) ids.push((await sender.send('test.backlog', { i, fail: i === 7 }))!);
    const runs: number[] = [];
    let failed = false;
    await worker.start();
    try {
      await worker.register<{ i: number; fail: boolean }>({
        name: 'test.backlog',
        retryLimit: 2,
        retryDelay: 1,
        concurrency: 3,
        handler: async ({ i, fail }) => {
          runs.push(i);
          if (fail && !failed) {
            failed = true;
            throw new Error('provider unavailable');
          }
        },
      });
      const states = await eventually(async () => {
        const jobs = await Promise.all(ids.map((id) => sender.getJob('test.backlog', id)));
        return jobs.every((job) => job?.state === 'completed') ? jobs : undefined;
      }, 15_000);
      // Only the failing job ran again.
      expect(states.map((job) => job!.retryCount)).toEqual(ids.map((_, i) => (i === 7 ? 1 : 0)));
      expect([...runs].sort((a, b) => a - b)).toEqual([...ids.keys(), 7].sort((a, b) => a - b));
      // Sent by the working process, a job starts without waiting for the next poll.
      const sentHere = await worker.send('test.backlog', { i: 99, fail: false });
      await eventually(
        async () => (await worker.getJob('test.backlog', sentHere!))?.state === 'completed',
        15_000,
      );
    } finally {
      await worker.stop();
      await sender.stop();
    }
  });

  it("runs each key's jobs in the order they were written, sent one by one or together", async () => {
    // Written while no process works the queue, then fetched ten at a time by a worker with
    // four lanes: each chat's jobs must run in the order they were written. With pg-boss's
    // random ids a fetch came back in no set order, and a chat's messages could go out of it.
    const { sender, worker } = await senderAndWorker('test.ordered', 1);
    for (let i = 0; i < 30; i += 1) await sender.send('test.ordered', { chat: i % 3, i });
    await sender.sendMany(
      Array.from({ length: 30 }, (_, n) => ({ name: 'test.ordered', data: { chat: n % 3, i: 30 + n } })),
    );
    const runs: Array<{ chat: number; i: number }> = [];
    await worker.start();
    try {
      await worker.register<{ chat: number; i: number }>({
        name: 'test.ordered',
        concurrency: 4,
        orderKey: (data) => String(data.chat),
        handler: async (data) => {
          runs.push(data);
          await new Promise((resolve) => setTimeout(resolve, data.i % 4));
        },
      });
      await eventually(async () => runs.length >= 60, 15_000);
      for (const chat of [0, 1, 2]) {
        const order = runs.filter((run) => run.chat === chat).map((run) => run.i);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(order).toHaveLength(20);
      }
    } finally {
      await worker.stop();
      await sender.stop();
    }
  });

  it('makes job ids that grow in the order they are made, even past 4,096 in one millisecond', () => {
    const at = Date.now() + 60_000;
    const ids = Array.from({ length: 5000 }, () => nextJobId(at));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.slice(1).every((id, index) => id > ids[index])).toBe(true);
    expect(ids[0].replace(/-/g, '').slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    // A clock that steps back does not make an id smaller than the last.
    const later = nextJobId(at - 5_000);
    expect(later > ids[ids.length - 1]).toBe(true);
  });

  it('keeps the platform and identity schedules', async () => {
    expect(await server.queue.scheduledNames()).toEqual(
      expect.arrayContaining(['identity.prune-sessions', 'platform.prune-events']),
    );
  });
});

describe('runInLanes', () => {
  /** A run whose end the test decides: each item's run waits for its own release. */
  function controlled() {
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const run = (item: { id: string }) =>
      new Promise<void>((resolve, reject) => {
        started.push(item.id);
        releases.set(item.id, () => (item.id.endsWith('!') ? reject(new Error(item.id)) : resolve()));
      });
    const release = async (id: string) => {
      releases.get(id)!();
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    };
    return { started, run, release };
  }

  it('runs one key in order and other keys at once, up to the limit, and answers the failures', async () => {
    const items = [
      { id: 'a1', key: 'a' },
      { id: 'b1!', key: 'b' },
      { id: 'a2', key: 'a' },
      { id: 'c1', key: 'c' },
      { id: 'n1', key: undefined },
      { id: 'b2', key: 'b' },
    ];
    const { started, run, release } = controlled();
    const done = runInLanes(items, 2, (item) => item.key, run);
    await Promise.resolve();
    expect(started).toEqual(['a1', 'b1!']);
    await release('a1');
    expect(started).toEqual(['a1', 'b1!', 'a2']);
    await release('b1!');
    // A failure does not stop its lane: the next of that key still runs.
    expect(started).toEqual(['a1', 'b1!', 'a2', 'b2']);
    await release('a2');
    expect(started).toEqual(['a1', 'b1!', 'a2', 'b2', 'c1']);
    await release('b2');
    await release('c1');
    expect(started).toEqual(['a1', 'b1!', 'a2', 'b2', 'c1', 'n1']);
    await release('n1');
    const failures = await done;
    expect(failures.map(({ item, error }) => [item.id, (error as Error).message])).toEqual([['b1!', 'b1!']]);
  });

  it('runs one at a time with a limit of one, in the given order', async () => {
    const { started, run, release } = controlled();
    const done = runInLanes([{ id: 'x' }, { id: 'y' }], 1, () => undefined, run);
    await Promise.resolve();
    expect(started).toEqual(['x']);
    await release('x');
    expect(started).toEqual(['x', 'y']);
    await release('y');
    expect(await done).toEqual([]);
  });
});
