import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-server';
import type { DatabaseHandle } from './client';

// The connection pg-boss sends its SQL through (`queueConnection.executeSql`).
let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase(2);
  database = opened.database;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

const executeSql = (text: string, values?: unknown[]) => database.queueConnection.executeSql(text, values);

describe('the job queue connection', () => {
  it('runs a script of several statements without values, as pg-boss sends its schema', async () => {
    await executeSql(
      'create table queue_connection_probe (n int not null); insert into queue_connection_probe values (1), (2)',
    );
    const [row] = await database.query<{ n: number }>('select sum(n)::int as n from queue_connection_probe');
    expect(row.n).toBe(3);
  });

  it('answers a statement with values its rows, and stays usable after a statement fails', async () => {
    await expect(executeSql('select 1 / $1::int as n', [0])).rejects.toThrow(/division by zero/);
    const result = await executeSql('select $1::int + 1 as n, $2::text as word', [41, 'kata']);
    expect(result?.rows).toEqual([{ n: 42, word: 'kata' }]);
  });

  it('prepares a statement once per connection on PostgreSQL', async (context) => {
    if (database.driver !== 'postgres') return context.skip();
    const text = 'select $1::int * 2 as n';
    for (const n of [1, 2, 3]) expect((await executeSql(text, [n]))?.rows).toEqual([{ n: n * 2 }]);
    // One after another, the calls share the pool's one idle connection.
    const prepared = await executeSql(
      'select count(*)::int as prepared from pg_prepared_statements where statement = $1',
      [text],
    );
    expect(prepared?.rows).toEqual([{ prepared: 1 }]);
  });

  it('sends nothing once the database is closed: a worker that finishes late meets no error', async () => {
    const other = await openTestDatabase(1);
    await other.database.queueConnection.executeSql('select $1::int as n', [1]);
    await other.close();
    await expect(
      other.database.queueConnection.executeSql('select $1::int as n', [1]),
    ).resolves.toBeUndefined();
  });
});
