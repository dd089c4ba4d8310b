import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { beginStep, commitStep, type PipelineStep, runPipeline, stepOf } from './pipeline';

/**
 * Raw SQL on one connection inside one transaction, outside any tenant: the outbox relay
 * marks the events it takes and writes their jobs in one, so that an event is handed to
 * the job queue exactly once however the process ends.
 */
export interface SqlTransaction {
  /** A statement; on PostgreSQL the transaction's first travels with its BEGIN. */
  query<Row = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /**
   * The transaction's last statement, sent with its COMMIT (one round trip on PostgreSQL).
   * Nothing may follow it.
   */
  queryAndCommit<Row = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<Row[]>;
}

/** Runs `work` in a transaction: committed when it returns (or at its `queryAndCommit`), rolled back when it throws. */
export type SqlTransactionRunner = <T>(work: (tx: SqlTransaction) => Promise<T>) => Promise<T>;

const afterTheEnd = 'the transaction has ended: nothing may follow queryAndCommit';

/** On PostgreSQL: a pooled connection, with BEGIN and COMMIT riding on the first and last statements. */
export function postgresSqlTransactions(pool: pg.Pool): SqlTransactionRunner {
  return async (work) => {
    const client = await pool.connect();
    let begun = false;
    /** Committed: nothing may be sent after. */
    let ended = false;
    const send = async (steps: PipelineStep[]) => {
      if (ended) throw new Error(afterTheEnd);
      const lead = begun ? [] : [beginStep];
      begun = true;
      return runPipeline(client, [...lead, ...steps]);
    };
    const tx: SqlTransaction = {
      async query(text, values) {
        const results = await send([stepOf(text, values)]);
        return results[results.length - 1].rows;
      },
      async queryAndCommit(text, values) {
        const results = await send([stepOf(text, values), commitStep]);
        ended = true;
        return results[results.length - 2].rows;
      },
    };
    let broken: Error | undefined;
    try {
      const result = await work(tx);
      if (begun && !ended) {
        await client.query('commit');
        ended = true;
      }
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      if (begun && !ended)
        broken = await client.query('rollback').then(
          () => undefined,
          (failure: Error) => failure,
        );
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** On PGlite: its own transaction (one connection; the commit comes when `work` returns). */
export function pgliteSqlTransactions(client: PGlite): SqlTransactionRunner {
  return (work) =>
    client.transaction(async (inner) => {
      let ended = false;
      const query = async <Row>(text: string, values: readonly unknown[] = []) => {
        if (ended) throw new Error(afterTheEnd);
        return (await inner.query<Row>(text, [...values])).rows;
      };
      return work({
        query,
        async queryAndCommit<Row>(text: string, values?: readonly unknown[]) {
          const rows = await query<Row>(text, values);
          ended = true;
          return rows;
        },
      });
    });
}
