import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../../db/client';

/** A job: its queue name, how it retries, and the handler that does the work. */
export interface JobDefinition<Data extends object = Record<string, unknown>> {
  name: string;
  handler: (data: Data) => Promise<void>;
  retryLimit?: number;
  /** Seconds before the first retry; doubled each time when retryBackoff is on. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /** Cron expression (UTC) for jobs that run on a schedule. */
  cron?: string;
  /**
   * How many of this queue's jobs one process runs at once (1 unless said: one after another,
   * in the order they were sent). Jobs that wait on a network (a provider, a push service)
   * want more.
   */
  concurrency?: number;
  /**
   * Jobs with the same key run one after another in the order they were sent, even when the
   * queue runs several at once (an outbound message after the one sent before it in the
   * same chat). Within one process; a key that cannot be read runs as a job of its own.
   */
  orderKey?: (data: Data) => string | undefined;
}

/** How many jobs a worker takes in one fetch, at least, whatever its concurrency. */
export const jobsPerFetch = 10;

/**
 * Runs every item once: items with the same key one after another in their order, the rest
 * up to `limit` at a time. Answers the items that failed, with why.
 */
export async function runInLanes<T>(
  items: ReadonlyArray<T>,
  limit: number,
  keyOf: (item: T) => string | undefined,
  run: (item: T) => Promise<void>,
): Promise<Array<{ item: T; error: unknown }>> {
  const lanes = new Map<string, T[]>();
  items.forEach((item, index) => {
    const key = keyOf(item) ?? `\u0000${index}`;
    const lane = lanes.get(key);
    if (lane) lane.push(item);
    else lanes.set(key, [item]);
  });
  const waiting = [...lanes.values()];
  const failures: Array<{ item: T; error: unknown }> = [];
  const runner = async () => {
    for (let lane = waiting.shift(); lane; lane = waiting.shift()) {
      for (const item of lane) {
        try {
          await run(item);
        } catch (error) {
          failures.push({ item, error });
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, waiting.length)) }, runner));
  return failures;
}

let lastIdMs = 0;
let idsThisMs = 0;

/**
 * A job's id, each greater than the one before in this process (UUID version 7: the
 * millisecond, the count within it in the 12 bits after the version, then random). pg-boss
 * picks a fetch's jobs by creation time, then id, but answers them in no set order (a chat's
 * jobs came back as 9, 6, 3, 0, …); the worker runs them sorted by these ids, so a chat's
 * deliveries go in the order they were sent, and jobs written in one statement (`sendMany`,
 * one creation time) in the order given.
 */
export function nextJobId(now = Date.now()): string {
  if (now > lastIdMs) {
    lastIdMs = now;
    idsThisMs = 0;
  } else if (++idsThisMs > 0xfff) {
    lastIdMs += 1;
    idsThisMs = 0;
  }
  const time = lastIdMs.toString(16).padStart(12, '0').slice(-12);
  const random = randomBytes(8).toString('hex');
  const variant = ((parseInt(random[0], 16) & 0x3) | 0x8).toString(16);
  const count = idsThisMs.toString(16).padStart(3, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${count}-${variant}${random.slice(1, 4)}-${random.slice(4, 16)}`;
}

/**
 * The durable job queue (pg-boss 10) on the same database as everything else, through the
 * handle's `executeSql`: on PostgreSQL a pool of its own whose statements are prepared once
 * per connection, on PGlite the embedded database. Only processes with the worker role run
 * handlers; every process may send.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  /** This process's worker of each queue it works, to wake when a job is sent. */
  private readonly workerIds = new Map<string, string>();
  private started = false;

  constructor(
    database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
    private readonly options: { runWorkers: boolean; pollingIntervalSeconds?: number },
  ) {
    this.boss = new PgBoss({
      // pg-boss's type says rows always come; its own pool answered undefined once closed, as ours does.
      db: { executeSql: database.queueConnection.executeSql as PgBoss.Db['executeSql'] },
      schema: 'pgboss',
      supervise: options.runWorkers,
      schedule: options.runWorkers,
      migrate: true,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
  }

  async start(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  /** Creates the queue (idempotent), its schedule, and its worker when this process works. */
  async register<Data extends object>(definition: JobDefinition<Data>): Promise<void> {
    this.definitions.set(definition.name, definition as JobDefinition<never>);
    const existing = await this.boss.getQueue(definition.name);
    const policy = {
      retryLimit: definition.retryLimit ?? 5,
      retryDelay: definition.retryDelay ?? 2,
      retryBackoff: definition.retryBackoff ?? true,
    };
    if (existing) await this.boss.updateQueue(definition.name, { name: definition.name, ...policy });
    else await this.boss.createQueue(definition.name, { name: definition.name, ...policy });
    if (!this.options.runWorkers) return;
    if (definition.cron) await this.boss.schedule(definition.name, definition.cron, {}, { tz: 'UTC' });
    const concurrency = Math.max(1, definition.concurrency ?? 1);
    const orderKey = definition.orderKey;
    // pg-boss's worker takes a fetch's jobs, then waits out its polling interval before the
    // next fetch unless it is woken: one job a fetch made a queue run at most two jobs a
    // second, and under load its backlog only grew (9,163 push plans behind after a few
    // minutes of the realtime bench). A worker now takes several, runs them (failing each on
    // its own), and when it found any looks again at once; it waits only when the queue is
    // empty, and a job sent by this process wakes it.
    let workerId: string | undefined;
    workerId = await this.boss.work<Data>(
      definition.name,
      {
        pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1,
        batchSize: Math.max(concurrency, jobsPerFetch),
      },
      async (fetched) => {
        // In the order they were written (nextJobId), so that one key's lane runs them as
        // they came.
        const jobs = [...fetched].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const failures = await runInLanes(
          jobs,
          concurrency,
          (job) => orderKey?.(job.data),
          async (job) => {
            try {
              await definition.handler(job.data);
            } catch (error) {
              this.logger.warn(
                { err: error, job: definition.name, jobId: job.id },
                'job failed; it will retry',
              );
              throw error;
            }
          },
        );
        // pg-boss completes the batch's jobs still active: the failed ones are failed first.
        for (const { item, error } of failures)
          await this.boss.fail(definition.name, item.id, error as object);
        if (workerId) this.boss.notifyWorker(workerId);
      },
    );
    this.workerIds.set(definition.name, workerId);
  }

  async send(name: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const id = await this.boss.send(name, data, { ...options, id: options.id ?? nextJobId() });
    if (!options.startAfter) this.wake(name);
    return id;
  }

  /** This process's worker of the queue, if it has one, looks for jobs at once. */
  private wake(name: string): void {
    const workerId = this.workerIds.get(name);
    if (workerId) this.boss.notifyWorker(workerId);
  }

  /**
   * Several jobs in one statement, as `send` would make each (the queue's retry policy, no
   * options), in the order given: they share their creation time, and their ids (nextJobId)
   * keep them in that order. A job whose queue is not registered is dropped, as pg-boss's
   * insert does.
   */
  async sendMany(jobs: ReadonlyArray<{ name: string; data: object }>): Promise<void> {
    if (jobs.length === 0) return;
    await this.writeMany(jobs);
    this.wakeQueuesOf(jobs);
  }

  /**
   * `sendMany`'s statement, run by the caller's transaction (`executeSql`): the jobs exist
   * once it commits, and the caller then wakes their workers (`wakeQueuesOf`).
   */
  async writeMany(
    jobs: ReadonlyArray<{ name: string; data: object }>,
    executeSql?: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>,
  ): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((job) => ({ id: nextJobId(), name: job.name, data: job.data })),
      executeSql ? { db: { executeSql } } : {},
    );
  }

  /** This process's workers of the jobs' queues look for jobs at once. */
  wakeQueuesOf(jobs: ReadonlyArray<{ name: string }>): void {
    for (const name of new Set(jobs.map((job) => job.name))) this.wake(name);
  }

  /** The job's state as pg-boss keeps it (for tests and the health check). */
  async getJob(name: string, id: string): Promise<PgBoss.JobWithMetadata | null> {
    return this.boss.getJobById(name, id);
  }

  /** Names of the queues that run on a schedule. */
  async scheduledNames(): Promise<string[]> {
    return (await this.boss.getSchedules()).map((schedule) => schedule.name);
  }

  async healthy(): Promise<boolean> {
    if (!this.started) return false;
    try {
      await this.boss.getQueues();
      return true;
    } catch {
      return false;
    }
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 5000 });
  }
}
