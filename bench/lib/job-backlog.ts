// The job queue's backlog, for benches that put load on the server: how many jobs wait when
// the load stops, and how long the server's workers take to finish them. A queue whose workers
// fall behind is invisible to the latency figures (the jobs run after the answer) and grows
// without bound under steady load.
import pg from 'pg';

/** Whether the job queue's table exists yet: a fresh seed has none until a server has started. */
async function hasJobTable(client: pg.Client): Promise<boolean> {
  const result = await client.query<{ found: string | null }>(
    `select to_regclass('pgboss.job')::text as found`,
  );
  return result.rows[0].found !== null;
}

/** Jobs still to run (waiting, active or due for a retry), by queue, and the events still to relay. */
async function jobsWaiting(client: pg.Client, since: Date): Promise<Record<string, number>> {
  // Events the outbox relay has not handed to their queues yet are jobs to come.
  const result = await client.query<{ name: string; count: string }>(
    `select name, count(*) from pgboss.job
      where state in ('created', 'retry', 'active') and created_on >= $1 group by name
     union all
     select 'outbox events not yet relayed', count(*) from outbox_events
      where relayed_at is null and created_at >= $1 having count(*) > 0
     union all
     -- Messages whose words the keyword search has not taken yet (migration 0030).
     select 'messages not yet in the search words', count(*) from ticket_search_backlog
      having count(*) > 0
     order by 1`,
    [since],
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, Number(row.count)]));
}

/** Removes jobs a stopped bench server left waiting, so that this run's workers do not run them. */
export async function dropLeftoverJobs(databaseUrl: string, before: Date): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (!(await hasJobTable(client))) return 0;
    const result = await client.query(
      `delete from pgboss.job where state in ('created', 'retry', 'active') and created_on < $1`,
      [before],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

export interface BacklogFigures {
  /** Jobs waiting when the load stopped, by queue. */
  atEnd: Record<string, number>;
  /** Seconds from then until none of the run's jobs waited (null: not within the limit). */
  drainedSeconds: number | null;
}

/** Waits (up to `limitSeconds`) for the run's jobs to be done; answers what waited and for how long. */
export async function backlogAfterLoad(
  databaseUrl: string,
  since: Date,
  limitSeconds = 60,
): Promise<BacklogFigures> {
  const started = Date.now();
  // One connection for the whole wait: the machine under measurement is the one polled.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (!(await hasJobTable(client))) return { atEnd: {}, drainedSeconds: 0 };
    const atEnd = await jobsWaiting(client, since);
    let waiting = atEnd;
    while (Object.keys(waiting).length > 0) {
      // Jobs due later (a retry's backoff) are not a backlog; the bench's runs make none.
      if (Date.now() - started > limitSeconds * 1000) return { atEnd, drainedSeconds: null };
      await new Promise((resolve) => setTimeout(resolve, 250));
      waiting = await jobsWaiting(client, since);
    }
    return { atEnd, drainedSeconds: (Date.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

export function describeBacklog(figures: BacklogFigures): string {
  const total = Object.values(figures.atEnd).reduce((sum, count) => sum + count, 0);
  const queues = Object.entries(figures.atEnd)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  const drained =
    figures.drainedSeconds === null
      ? 'not done within the limit'
      : `done ${figures.drainedSeconds.toFixed(1)} s later`;
  return total === 0
    ? 'no job waiting when the load stopped'
    : `${total} jobs waiting when the load stopped (${queues}), ${drained}`;
}
