// Where PostgreSQL's time goes during one part of a bench: when the database has the
// pg_stat_statements extension loaded (`shared_preload_libraries`, with
// `pg_stat_statements.track = all` to see the statements inside functions and triggers),
// `BENCH_STATEMENTS=1` resets its counters before the part and prints the statements that
// took the most time after it, per call: time, buffers and WAL bytes. Without the
// extension it says so and the bench goes on.
import pg from 'pg';

export interface StatementWatch {
  /** Prints the top statements since the watch began, per call and per unit of `per`. */
  report(per: { label: string; count: number }, limit?: number): Promise<void>;
}

export async function watchStatements(databaseUrl: string): Promise<StatementWatch | undefined> {
  if (process.env.BENCH_STATEMENTS !== '1') return undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
  } catch (error) {
    console.log(`  BENCH_STATEMENTS: pg_stat_statements is not loaded here (${(error as Error).message})`);
    await client.end();
    return undefined;
  }
  return {
    async report(per, limit = 25) {
      try {
        const { rows } = await client.query<{
          calls: string;
          total: number;
          blocks_read: string;
          blocks_written: string;
          wal_bytes: string;
          toplevel: boolean;
          query: string;
        }>(
          `select calls, total_exec_time as total, shared_blks_read as blocks_read,
                  shared_blks_written as blocks_written, wal_bytes, toplevel,
                  regexp_replace(query, '\\s+', ' ', 'g') as query
             from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
            order by total_exec_time desc limit $1`,
          [limit],
        );
        console.log(
          `  statements by time (${per.count} ${per.label}; ms per ${per.label.replace(/s$/, '')}, calls per, ms a call, blocks read and written a call, WAL bytes a call):`,
        );
        for (const row of rows) {
          const calls = Number(row.calls);
          console.log(
            `  ${(row.total / per.count).toFixed(3).padStart(8)} ${(calls / per.count).toFixed(2).padStart(6)} ` +
              `${(row.total / calls).toFixed(3).padStart(8)} ${(Number(row.blocks_read) / calls).toFixed(1).padStart(5)} ` +
              `${(Number(row.blocks_written) / calls).toFixed(1).padStart(5)} ${Math.round(
                Number(row.wal_bytes) / calls,
              )
                .toString()
                .padStart(6)} ${row.toplevel ? ' ' : '↳'} ${row.query.slice(0, 90)}`,
          );
        }
      } finally {
        await client.end();
      }
    },
  };
}
