import { createTableRelationsHelpers, extractTablesRelationalConfig, type SQL } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Database, Executor, Transaction } from './client';
import { inlineParams } from './inline-params';
import * as schema from './schema';

/**
 * Work on one pooled PostgreSQL connection bound to a tenant by `setupSql` (plain SQL
 * without parameters).
 *
 * Each statement costs the server process a write to PostgreSQL's socket and a wait for
 * the answer, and on a busy machine those system calls outweigh the statements themselves.
 * Drizzle's transaction sends four messages for one query (begin, setup, query, commit).
 * Here the setup travels in the same simple-protocol message as the first statement, with
 * its parameters written as literals (`inlineParams`), and statements queued by
 * `runAtCommit` travel with the commit.
 */
export interface TenantConnections {
  /** A transaction: `begin` and the setup go with the first statement. */
  transaction<T>(setupSql: string, work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Reads: every statement runs in its own read-only transaction, with the setup in the same
   * message, so a one-statement read is one round trip and nothing is left to commit. Under
   * READ COMMITTED each statement of a transaction sees its own snapshot anyway.
   */
  read<T>(setupSql: string, work: (tx: Transaction) => Promise<T>): Promise<T>;
}

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

/** The client a Drizzle session talks to: it prepends the pending lead to the next statement. */
class CarryingConnection {
  /** Sent before the next statement, in the same message (a transaction's begin and setup). */
  private lead: string | undefined;
  /** Sent before every statement (read mode). */
  private everyLead: string | undefined;
  /** The tenant set-up of the current use. */
  private setup = '';
  private atCommit: string[] = [];
  private begun = false;
  private inTransaction = false;

  constructor(readonly client: pg.PoolClient) {}

  startTransaction(setupSql: string): void {
    this.setup = setupSql;
    this.lead = `begin; ${setupSql}`;
    this.begun = false;
    this.inTransaction = true;
  }

  startReads(setupSql: string): void {
    this.setup = setupSql;
    this.everyLead = `set transaction read only; ${setupSql}`;
  }

  deferWithCommit(statement: SQL): boolean {
    if (!this.inTransaction) return false;
    const { sql: text, params } = dialect.sqlToQuery(statement);
    this.atCommit.push(inlineParams(text, params));
    return true;
  }

  /** Commits what was begun, with the deferred statements; sends nothing for a transaction that ran none. */
  async commit(): Promise<void> {
    if (!this.begun && this.atCommit.length === 0) return;
    const lead = this.takeLead();
    await this.client.query([...(lead ? [lead] : []), ...this.atCommit, 'commit'].join('; '));
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
    this.atCommit = [];
    this.inTransaction = false;
  }

  /** Several statements in one simple message, after the pending lead: each one's rows. */
  async together(
    queries: ReadonlyArray<{ sql: string; params: unknown[] }>,
  ): Promise<Array<Record<string, unknown>[]>> {
    const lead = this.takeLead();
    const body = queries.map((query) => inlineParams(query.sql, query.params)).join('; ');
    const text = lead === undefined ? body : `${lead}; ${body}`;
    const answer = (await this.client.query({ text, types: driverTypes } as QueryConfig)) as
      | pg.QueryResult
      | pg.QueryResult[];
    const results = Array.isArray(answer) ? answer : [answer];
    return results.slice(results.length - queries.length).map((result) => result.rows);
  }

  async query(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    // A named (prepared) statement cannot travel in a simple message: in read mode it runs
    // in a read-only transaction of its own, in a transaction after its lead.
    if (config.name && this.everyLead !== undefined) return this.namedRead(config, values);
    const lead = this.takeLead();
    if (lead === undefined) return this.client.query(config, values);
    if (config.name) {
      await this.client.query(lead);
      return this.client.query(config, values);
    }
    const text = `${lead}; ${inlineParams(config.text, values ?? config.values ?? [])}`;
    const answer = (await this.client.query({
      text,
      rowMode: config.rowMode,
      types: config.types,
    } as QueryConfig)) as pg.QueryResult | pg.QueryResult[];
    return Array.isArray(answer) ? answer[answer.length - 1] : answer;
  }

  /** What goes before the next statement; taking a transaction's lead begins it. */
  private takeLead(): string | undefined {
    if (this.everyLead !== undefined) return this.everyLead;
    const lead = this.lead;
    if (lead !== undefined) {
      this.lead = undefined;
      this.begun = true;
    }
    return lead;
  }

  private async namedRead(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    await this.client.query(`begin read only; ${this.setup}`);
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
    async transaction(setupSql, work) {
      const { client, connection, tx } = await borrow();
      let broken: Error | undefined;
      try {
        connection.startTransaction(setupSql);
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
    async read(setupSql, work) {
      const { client, connection, tx } = await borrow();
      try {
        connection.startReads(setupSql);
        return await work(tx);
      } finally {
        connection.finish();
        client.release();
      }
    },
  };
}
