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
}

/**
 * The durable job queue (pg-boss 10) on the same database as everything else: PostgreSQL
 * directly, PGlite through the executeSql adapter. Only processes with the worker role run
 * handlers; every process may send.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private started = false;

  constructor(
    database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
    private readonly options: { runWorkers: boolean; pollingIntervalSeconds?: number },
  ) {
    const connection =
      'executeSql' in database.queueConnection
        ? { db: { executeSql: database.queueConnection.executeSql } }
        : { connectionString: database.queueConnection.connectionString, max: 4 };
    this.boss = new PgBoss({
      ...connection,
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
    await this.boss.work<Data>(
      definition.name,
      { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1, batchSize: 1 },
      async ([job]) => {
        try {
          await definition.handler(job.data);
        } catch (error) {
          this.logger.warn({ err: error, job: definition.name, jobId: job.id }, 'job failed; it will retry');
          throw error;
        }
      },
    );
  }

  async send(name: string, data: object, options: PgBoss.SendOptions = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
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
