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
