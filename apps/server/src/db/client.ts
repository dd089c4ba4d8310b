import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { runPipeline, stepOf } from './pipeline';
import * as schema from './schema';
import { pgliteSqlTransactions, postgresSqlTransactions, type SqlTransactionRunner } from './sql-transaction';
import { registerTenantConnections } from './tenant-connections';

export type Schema = typeof schema;
/** The Drizzle database, the same type on PGlite and PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a repository can run SQL on: the database or an open transaction. */
export type Executor = Database | Transaction;

/** What pg-boss needs to run its SQL: the adapter it sends every statement to. */
export interface QueueConnection {
  executeSql: ExecuteSql;
}
/**
 * Undefined when nothing was sent because the database is closed: a worker's late statement
 * after the queue's graceful stop, which pg-boss's own pool answered so, and pg-boss reads as
 * "no row touched".
 */
type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] } | undefined>;

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Runs raw SQL (for health checks and tests). */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /**
   * Subscribes to a NOTIFY channel; resolves with the function that unsubscribes. On
   * PostgreSQL the listening connection may drop and come back; notifications sent meanwhile
   * are lost, so `onResumed` is called once it listens again, for the subscriber to read what
   * it missed. PGlite listens in the process and never drops.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onResumed?: () => void,
  ): Promise<() => Promise<void>>;
  /** Raw SQL in one transaction on one connection, outside any tenant (the outbox relay). */
  sqlTransaction: SqlTransactionRunner;
  queueConnection: QueueConnection;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const migrationLockKey = 72_011_923;

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `memory://` keeps nothing. */
  pgliteDataDir?: string;
  poolSize?: number;
  /** How long after the listening connection drops it connects again (PostgreSQL); 1 s. */
  listenReconnectMs?: number;
}

/** Opens PostgreSQL when a URL is given, otherwise the embedded PGlite under DATA_DIR. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.listenReconnectMs ?? 1000)
    : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  const dataDir = options.pgliteDataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    async query(text, values) {
      const result = await client.query(text, values);
      return result.rows as never[];
    },
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    sqlTransaction: pgliteSqlTransactions(client),
    queueConnection: {
      // pg-boss sends parameterised statements one at a time and plain multi-statement
      // scripts (schema, locks) without values: the first go to query, the second to exec.
      async executeSql(text, values) {
        // Closed: nothing is sent, as on PostgreSQL (preparedQueueSql).
        if (client.closed) return undefined;
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
    async close() {
      await client.close();
    },
  };
}

async function openPostgres(
  url: string,
  poolSize: number,
  listenReconnectMs: number,
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined);
  // pg-boss's own connections, as many as it opened itself before. Its statements keep one
  // generic plan each (preparedQueueSql).
  const queuePool = new pg.Pool({
    connectionString: url,
    max: 4,
    options: '-c plan_cache_mode=force_generic_plan',
  });
  queuePool.on('error', () => undefined);
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  registerTenantConnections(db, pool);
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const resumers = new Set<() => void>();
  let listenClient: pg.Client | undefined;
  let closing = false;
  /** Whether a listening connection was lost: the next one to listen tells the resumers. */
  let dropped = false;

  /** One dedicated connection carries every LISTEN; it reconnects when it drops. */
  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (listenClient === client) listenClient = undefined;
      if (closing) return;
      dropped = true;
      setTimeout(() => void listener().catch(() => undefined), listenReconnectMs);
    });
    await client.connect();
    try {
      for (const channel of listeners.keys()) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      // Ending it tries again after the delay ('end' above).
      await client.end().catch(() => undefined);
      throw error;
    }
    listenClient = client;
    if (dropped) {
      dropped = false;
      for (const resumed of resumers) resumed();
    }
    return client;
  }

  /** The listening connection, connecting it (once, however many ask) when there is none. */
  let connecting: Promise<pg.Client> | undefined;
  function listener(): Promise<pg.Client> {
    if (listenClient) return Promise.resolve(listenClient);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    db,
    driver: 'postgres',
    async query(text, values) {
      const result = await pool.query(text, values);
      return result.rows;
    },
    async listen(channel, onPayload, onResumed) {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
      const handlers = listeners.get(channel) ?? new Set();
      handlers.add(onPayload);
      const isNew = !listeners.has(channel);
      listeners.set(channel, handlers);
      const client = await listener();
      if (isNew) await client.query(`LISTEN "${channel}"`);
      if (onResumed) resumers.add(onResumed);
      return async () => {
        handlers.delete(onPayload);
        if (onResumed) resumers.delete(onResumed);
      };
    },
    sqlTransaction: postgresSqlTransactions(pool),
    queueConnection: { executeSql: preparedQueueSql(queuePool) },
    async migrate() {
      const client = await pool.connect();
      try {
        // Two processes starting together must not both migrate.
        await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
        await migrateNodePostgres(drizzleNodePostgres(client), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
        client.release();
      }
    },
    async close() {
      closing = true;
      await listenClient?.end().catch(() => undefined);
      await queuePool.end();
      await pool.end();
    },
  };
}

/**
 * pg-boss's statements on PostgreSQL, each prepared once per connection as the server's own
 * are (`runPipeline`). Through its own pool pg-boss sent every statement unnamed, so a
 * worker's poll for jobs was parsed and planned again each time: 1.1 ms of PostgreSQL a poll,
 * of which 0.1 ms ran it, and 26 polls a second on an idle server. Scripts without values
 * (its schema, its maintenance) go as they are, in the simple protocol that takes several
 * statements at once.
 */
function preparedQueueSql(pool: pg.Pool): ExecuteSql {
  return async (text, values) => {
    // Once the database is closed, a worker's last statement (a job's completion after the
    // queue's graceful stop gave up waiting) is not sent, as pg-boss's own pool did: the job
    // stays active and is taken again when it expires.
    if (pool.ending) return undefined;
    if (!values || values.length === 0) return pool.query(text);
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      const [result] = await runPipeline(client, [stepOf(text, values)]);
      return result;
    } catch (error) {
      // A statement's error leaves the connection usable; a broken connection does not.
      if (!(error instanceof pg.DatabaseError)) lost = error as Error;
      throw error;
    } finally {
      client.release(lost);
    }
  };
}
