import { createTableRelationsHelpers, extractTablesRelationalConfig, type SQL, sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Database, Executor, Transaction } from './client';
import { beginStep, commitStep, type PipelineStep, runPipeline, stepOf } from './pipeline';
import * as schema from './schema';

/**
 * Work on one pooled PostgreSQL connection bound to a tenant.
 *
 * Each statement costs the server process a write to PostgreSQL's socket and a wait for
 * the answer, and on a busy machine those system calls outweigh the statements themselves.
 * Drizzle's transaction sends four messages for one query (begin, setup, query, commit).
 * Here the setup travels in the same message as the first statement (a pipeline of the
 * extended protocol, `pipeline.ts`, whose statements are prepared once per connection), and
 * statements queued by `runAtCommit` travel with the commit.
 */
export interface TenantConnections {
  /** A transaction: `begin` and the setup go with the first statement. */
  transaction<T>(clientId: string, work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Reads: every statement runs in its own read-only transaction, with the setup in the same
   * message, so a one-statement read is one round trip and nothing is left to commit. Under
   * READ COMMITTED each statement of a transaction sees its own snapshot anyway.
   */
  read<T>(clientId: string, work: (tx: Transaction) => Promise<T>): Promise<T>;
}

/**
 * Random page reads priced as the cached or SSD reads they are (PostgreSQL's default, 4, is
 * for spinning disks). At 4, a room holding a tenth of a tenant's messages was read by
 * walking the primary key backwards past every newer message of other rooms (11–15 ms at
 * 10k and 100k tickets) instead of the room's own index (0.2 ms).
 *
 * And no JIT compilation: statements are prepared (pipeline.ts), and a generic plan, made
 * without knowing its LIMIT, can be priced past jit_above_cost. Seen at a million tickets:
 * a search page that reads 51 rows in 0.6 ms spent 21 ms compiling itself first.
 */
export const plannerSetup = "set_config('random_page_cost', '1.1', true), set_config('jit', 'off', true)";

const registered = new WeakMap<Database, TenantConnections>();
/** The connection behind each open transaction object, for `runAtCommit`. */
const connectionOfTransaction = new WeakMap<Transaction, CarryingConnection>();

/** The database's tenant connections on PostgreSQL; PGlite has no round trips to save. */
export function tenantConnectionsOf(db: Database): TenantConnections | undefined {
  return registered.get(db);
}

/** Binds tenant connections over the pool to the Drizzle database built on it. */
export function registerTenantConnections(db: Database, pool: pg.Pool): void {
  registered.set(db, tenantConnectionsOn(pool));
}

const dialect = new PgDialect();

/**
 * Runs a statement as the last of the transaction, in the same message as its commit (the
 * outbox events of a change, say). Where the executor cannot defer (PGlite, or the pool
 * itself) the statement runs at once. A failure of the statement fails the commit, so the
 * transaction's work is rolled back with it.
 */
export async function runAtCommit(executor: Executor, statement: SQL): Promise<void> {
  const connection = connectionOfTransaction.get(executor as Transaction);
  if (connection?.deferWithCommit(statement)) return;
  await executor.execute(statement);
}

/** The one statement of a batch deferred to the commit, made of all its items. */
export type BatchStatement<Item> = (items: ReadonlyArray<Item>) => SQL;

/**
 * Like `runAtCommit`, for statements that take many items (the outbox's events): every call
 * of one kind (`kind`, an object the caller keeps) in a transaction adds its items to one
 * statement that `build` makes at the commit, in the place of the kind's first call; so a
 * change that emits three events writes them with one statement, not three. Where the
 * executor cannot defer, the items' statement runs at once.
 */
export async function runBatchAtCommit<Item>(
  executor: Executor,
  kind: object,
  items: ReadonlyArray<Item>,
  build: BatchStatement<Item>,
): Promise<void> {
  if (items.length === 0) return;
  const connection = connectionOfTransaction.get(executor as Transaction);
  if (connection?.deferBatchWithCommit(kind, items, build)) return;
  await executor.execute(build(items));
}

/**
 * Runs several independent reads in one message where the executor is a tenant connection
 * (one round trip), one after another elsewhere; answers each statement's rows keyed by
 * column name, values as `rawRowsOf` gives them (for `rowMapperOf`).
 */
export async function readTogether(
  executor: Executor,
  statements: ReadonlyArray<SQL>,
): Promise<Array<Record<string, unknown>[]>> {
  const connection = connectionOfTransaction.get(executor as Transaction);
  if (connection) return connection.together(statements.map((statement) => dialect.sqlToQuery(statement)));
  const answers: Array<Record<string, unknown>[]> = [];
  for (const statement of statements) {
    const result = (await executor.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
    answers.push(result.rows);
  }
  return answers;
}

/** Drizzle's own parsing of result values: dates, times and intervals (and their arrays) stay text. */
const keptAsText = new Set([1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const driverTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    keptAsText.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text'),
};

type QueryConfig = pg.QueryConfig & { rowMode?: 'array'; types?: unknown };

/**
 * The tenant set-up as one prepared statement: the client id, the role (so row-level
 * security applies), the planner's page cost, and for reads a read-only transaction.
 */
const setupText = (readOnly: boolean) =>
  `select set_config('app.client_id', $1, true), set_config('role', 'app_tenant', true), ${plannerSetup}` +
  (readOnly ? `, set_config('transaction_read_only', 'on', true)` : '');
const transactionSetupText = setupText(false);
const readSetupText = setupText(true);
/** The read set-up that also has the statement it guards run on its generic plan (`withGenericPlan`). */
const genericReadSetupText = `${readSetupText}, set_config('plan_cache_mode', 'force_generic_plan', true)`;

/** What `withGenericPlan` puts at the head of a statement's text. */
const genericPlanMarker = '/* generic plan */ ';

/**
 * Marks a read whose plan does not depend on its values, so that PostgreSQL plans it once per
 * connection instead of on every run. Under the default plan_cache_mode a prepared statement
 * is planned again for each run as long as its generic plan looks dearer than the custom
 * ones, and a LIMIT given as a parameter always looks dear: the inbox agent's page was planned
 * again on every run (0.76–0.87 ms each at a million tickets; planning was a quarter of
 * PostgreSQL's time on the ticket list). Only for statements every one of whose plans reads the
 * same index ranges (no filter that another index could answer better for a rare value).
 * Honoured by reads on PostgreSQL (`readInTenant`), where the set-up travels with each
 * statement and the setting ends with it; elsewhere the statement is planned as usual.
 */
export function withGenericPlan(statement: SQL): SQL {
  return sql`${sql.raw(genericPlanMarker)}${statement}`;
}

const wantsGenericPlan = (text: string) => text.startsWith(genericPlanMarker);

/** The client a Drizzle session talks to: it sends the pending lead with the next statement. */
class CarryingConnection {
  /** Sent before the next statement, in the same message (a transaction's begin and setup). */
  private lead: PipelineStep[] | undefined;
  /** Sent before every statement (read mode). */
  private everyLead: PipelineStep[] | undefined;
  /** The read mode's lead for statements marked by `withGenericPlan`. */
  private genericLead: PipelineStep[] | undefined;
  /** The tenant of the current use. */
  private clientId = '';
  /** Statements for the commit's message; a batch's is built at the commit, from all its items. */
  private atCommit: Array<PipelineStep | (() => PipelineStep)> = [];
  /** The items of each batch deferred to the commit, by the batch's kind. */
  private readonly batches = new Map<object, unknown[]>();
  private begun = false;
  private inTransaction = false;

  constructor(readonly client: pg.PoolClient) {}

  startTransaction(clientId: string): void {
    this.clientId = clientId;
    this.lead = [beginStep, stepOf(transactionSetupText, [clientId])];
    this.begun = false;
    this.inTransaction = true;
  }

  startReads(clientId: string): void {
    this.clientId = clientId;
    this.everyLead = [stepOf(readSetupText, [clientId])];
    this.genericLead = [stepOf(genericReadSetupText, [clientId])];
  }

  deferWithCommit(statement: SQL): boolean {
    if (!this.inTransaction) return false;
    const { sql: text, params } = dialect.sqlToQuery(statement);
    this.atCommit.push(stepOf(text, params));
    return true;
  }

  /** Adds items to the one statement of their kind that `build` makes of them all at the commit. */
  deferBatchWithCommit<Item>(kind: object, items: ReadonlyArray<Item>, build: BatchStatement<Item>): boolean {
    if (!this.inTransaction) return false;
    const known = this.batches.get(kind) as Item[] | undefined;
    if (known) {
      known.push(...items);
      return true;
    }
    const all = [...items];
    this.batches.set(kind, all);
    this.atCommit.push(() => {
      const { sql: text, params } = dialect.sqlToQuery(build(all));
      return stepOf(text, params);
    });
    return true;
  }

  /** Commits what was begun, with the deferred statements; sends nothing for a transaction that ran none. */
  async commit(): Promise<void> {
    if (!this.begun && this.atCommit.length === 0) return;
    const lead = this.takeLead() ?? [];
    const deferred = this.atCommit.map((step) => (typeof step === 'function' ? step() : step));
    await runPipeline(this.client, [...lead, ...deferred, commitStep]);
  }

  /** Rolls back what was begun; resolves with the failure when the connection could not. */
  async rollback(): Promise<Error | undefined> {
    if (!this.begun) return undefined;
    return this.client.query('rollback').then(
      () => undefined,
      (failure: Error) => failure,
    );
  }

  /** Forgets the use's state before the connection goes back to the pool. */
  finish(): void {
    this.lead = undefined;
    this.everyLead = undefined;
    this.genericLead = undefined;
    this.atCommit = [];
    this.batches.clear();
    this.inTransaction = false;
  }

  /** Several statements in one message, after the pending lead: each one's rows. */
  async together(
    queries: ReadonlyArray<{ sql: string; params: unknown[] }>,
  ): Promise<Array<Record<string, unknown>[]>> {
    // One set-up guards them all: generic plans only when every statement asks for one.
    const lead = this.takeLead(queries.every((query) => wantsGenericPlan(query.sql))) ?? [];
    const steps = queries.map((query) => stepOf(query.sql, query.params, { types: driverTypes }));
    const results = await runPipeline(this.client, [...lead, ...steps]);
    return results.slice(lead.length).map((result) => result.rows);
  }

  async query(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    // A named (prepared) statement keeps its own name: in read mode it runs in a read-only
    // transaction of its own, in a transaction after its lead.
    if (config.name && this.everyLead !== undefined) return this.namedRead(config, values);
    const lead = this.takeLead(wantsGenericPlan(config.text)) ?? [];
    if (config.name) {
      if (lead.length > 0) await runPipeline(this.client, lead);
      return this.client.query(config, values);
    }
    const step = stepOf(config.text, values ?? config.values ?? [], {
      rowMode: config.rowMode,
      types: config.types,
    });
    const results = await runPipeline(this.client, [...lead, step]);
    return results[results.length - 1];
  }

  /** What goes before the next statement; taking a transaction's lead begins it. */
  private takeLead(generic = false): PipelineStep[] | undefined {
    if (this.everyLead !== undefined) return generic ? this.genericLead : this.everyLead;
    const lead = this.lead;
    if (lead !== undefined) {
      this.lead = undefined;
      this.begun = true;
    }
    return lead;
  }

  private async namedRead(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    await runPipeline(this.client, [
      stepOf('begin read only'),
      stepOf(transactionSetupText, [this.clientId]),
    ]);
    try {
      const result = await this.client.query(config, values);
      await this.client.query('commit');
      return result;
    } catch (error) {
      await this.client.query('rollback');
      throw error;
    }
  }
}

function tenantConnectionsOn(pool: pg.Pool): TenantConnections {
  // The same dialect and relational schema drizzle() builds for `db`.
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  // Each pooled connection keeps one session and transaction object: neither holds state of
  // its own between uses, and building them (a query builder per table) is not free.
  const bound = new WeakMap<pg.PoolClient, { connection: CarryingConnection; tx: Transaction }>();

  async function borrow(): Promise<{
    client: pg.PoolClient;
    connection: CarryingConnection;
    tx: Transaction;
  }> {
    const client = await pool.connect();
    let entry = bound.get(client);
    if (!entry) {
      const connection = new CarryingConnection(client);
      const session = new NodePgSession(connection as unknown as pg.PoolClient, dialect, relational);
      const tx = new NodePgTransaction(dialect, session, relational) as unknown as Transaction;
      connectionOfTransaction.set(tx, connection);
      entry = { connection, tx };
      bound.set(client, entry);
    }
    return { client, ...entry };
  }

  return {
    async transaction(clientId, work) {
      const { client, connection, tx } = await borrow();
      let broken: Error | undefined;
      try {
        connection.startTransaction(clientId);
        const result = await work(tx);
        await connection.commit();
        return result;
      } catch (error) {
        // A connection that cannot even roll back is dropped rather than handed to the next caller.
        broken = await connection.rollback();
        throw error;
      } finally {
        connection.finish();
        client.release(broken);
      }
    },
    async read(clientId, work) {
      const { client, connection, tx } = await borrow();
      try {
        connection.startReads(clientId);
        return await work(tx);
      } finally {
        connection.finish();
        client.release();
      }
    },
  };
}
