import os from 'node:os';
import pg from 'pg';

/** `--tickets 1000 --messages=5000 --quick` → { tickets: '1000', messages: '5000', quick: 'true' } */
export function parseFlags(argv: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    const [key, inline] = arg.slice(2).split('=', 2);
    if (inline !== undefined) flags[key] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) flags[key] = argv[++i];
    else flags[key] = 'true';
  }
  return flags;
}

/** The bench database (an explicit URL first, e.g. a --database-url flag): its own, because the generator empties it. */
export function benchDatabaseUrl(explicit?: string): string {
  const url =
    explicit ??
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/bench';
  const name = new URL(url).pathname.slice(1);
  if (!/bench|^ci_/.test(name)) {
    throw new Error(
      `refusing to use database "${name}": the bench database's name must contain "bench" (it is emptied)`,
    );
  }
  return url;
}

/** Creates the database named in the URL when it does not exist, through the server's `postgres` database. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** The tables every customer message, event and job rewrites (pg-boss's own are added). */
const busyTables = [
  'tickets',
  // Each message rewrites its ticket's activity row (migration 0034); unvacuumed, the 413,305
  // dead versions a day of realtime runs left made an inbox page cost PostgreSQL 2.5 ms
  // instead of 0.6 (twenty-eighth stop).
  'ticket_activity',
  // A run's messages, and with --history hundreds of thousands more, go when it ends.
  'messages',
  'chat_rooms',
  'ticket_search',
  'ticket_search_backlog',
  'ticket_search_tails',
  'ticket_counters',
  'contacts',
  'contact_identities',
  'outbox_events',
];

/**
 * Vacuums the tables that runs rewrite, when the server's autovacuum is off (this machine's
 * PostgreSQL sets `autovacuum = off` in its conf.d): without it every run leaves dead row
 * versions behind (each message makes a new version of its ticket), the next run reads
 * through them, and figures fall run after run. Autovacuum would have done the same in
 * between. Prints what it did.
 */
export async function vacuumWhenAutovacuumIsOff(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    if (rows[0].autovacuum === 'on') return;
    const started = performance.now();
    const jobs = await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, relname) as name from pg_stat_all_tables where schemaname = 'pgboss'`,
    );
    // A table a later migration adds is there once a server of this build has started.
    const present = await client.query<{ name: string }>(
      'select name from unnest($1::text[]) as name where to_regclass(name) is not null',
      [busyTables],
    );
    const names = [...present.rows.map((row) => row.name), ...jobs.rows.map((row) => row.name)];
    for (const name of names) await client.query(`vacuum (analyze) ${name}`);
    console.log(
      `  autovacuum is off on this server: vacuumed ${names.length} busy tables in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Reads the database's files once into the system's cache (`pg_prewarm` in its `read` mode),
 * when they fit in half the machine's memory. Right after a seed on a new machine the cache held
 * 3.4 GB of the 8.3 GB database, and the first run's lists and rooms came out 1.3–1.7× slower
 * than the next run's (thirty-fifth stop): the disk's figures, not the product's. Prints what it
 * did.
 */
export async function warmDatabaseCache(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const size = await client.query<{ bytes: string }>(
      'select pg_database_size(current_database())::text as bytes',
    );
    const megabytes = Math.round(Number(size.rows[0].bytes) / 2 ** 20);
    if (Number(size.rows[0].bytes) > os.totalmem() / 2) {
      console.log(
        `  the database (${megabytes} MB) is over half the machine's memory: not read into its cache`,
      );
      return;
    }
    const started = performance.now();
    const available = await client.query('create extension if not exists pg_prewarm').then(
      () => true,
      (error: Error) => {
        console.log(
          `  pg_prewarm is not available (${error.message}): the database is not read into the cache`,
        );
        return false;
      },
    );
    if (!available) return;
    // Every relation with storage of this database, other sessions' temporary ones aside.
    await client.query(
      `select pg_prewarm(c.oid, 'read') from pg_class c
        where c.relkind in ('r', 'i', 't', 'm') and c.relpersistence in ('p', 'u')`,
    );
    console.log(
      `  read the database (${megabytes} MB) into the system's cache in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await client.end();
  }
}
