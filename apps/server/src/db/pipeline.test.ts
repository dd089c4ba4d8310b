import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedPerConnection, runPipeline } from './pipeline';

// The pipeline speaks PostgreSQL's wire protocol: PGlite has no connection to pipeline on.
describe.skipIf(!process.env.DATABASE_URL)('runPipeline (PostgreSQL)', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query('create temporary table pipeline_notes (id int primary key, at timestamptz)');
  });
  afterAll(async () => {
    await client?.end();
  });

  const prepared = async () =>
    (
      await client.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements',
      )
    ).rows;

  it('runs its steps in one transaction and answers each with its own rows', async () => {
    const [setup, read, plain] = await runPipeline(client, [
      { text: `select set_config('app.client_id', $1, true) as set`, values: ['tenant-a'] },
      { text: `select current_setting('app.client_id', true) as seen, $1::int + 1 as next`, values: [41] },
      { text: 'select 1 as one, 2 as two', values: [], rowMode: 'array' },
    ]);
    expect(setup.rows).toEqual([{ set: 'tenant-a' }]);
    expect(read.rows).toEqual([{ seen: 'tenant-a', next: 42 }]);
    expect(plain.rows).toEqual([[1, 2]]);
    // The setting was local to the pipeline's transaction, which ended with it.
    const after = await client.query(`select coalesce(current_setting('app.client_id', true), '') as seen`);
    expect(after.rows[0].seen).toBe('');
  });

  it('parses a statement with parameters once per connection, and keeps the caller’s type parsers', async () => {
    const text = 'select $1::timestamptz as at, $2::text as label';
    const keepText = { getTypeParser: () => (value: string) => value };
    for (let i = 0; i < 3; i += 1) {
      const [answer] = await runPipeline(client, [
        { text, values: ['2026-11-25T10:00:00.123456Z', `run ${i}`], types: keepText },
      ]);
      expect(answer.rows).toEqual([{ at: '2026-11-25 10:00:00.123456+00', label: `run ${i}` }]);
    }
    const same = (await prepared()).filter((statement) => statement.statement === text);
    expect(same).toHaveLength(1);
  });

  it('on a failure keeps nothing of the pipeline, and the next one on the connection runs', async () => {
    const insert = 'insert into pipeline_notes (id) values ($1)';
    const after = 'select $1::int as after';
    await expect(
      runPipeline(client, [
        { text: insert, values: [1] },
        { text: 'select 1 / $1::int as broken', values: [0] },
        { text: after, values: [2] },
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await client.query('select count(*)::int as n from pipeline_notes')).rows[0].n).toBe(0);
    // The statements the failed pipeline may or may not have made are made again.
    const [inserted, read] = await runPipeline(client, [
      { text: insert, values: [1] },
      { text: after, values: [3] },
    ]);
    expect(inserted.rowCount).toBe(1);
    expect(read.rows).toEqual([{ after: 3 }]);
  });

  it('refuses a value it cannot write without sending a half pipeline, and the connection goes on', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      runPipeline(client, [
        { text: 'insert into pipeline_notes (id) values ($1)', values: [7] },
        { text: 'select $1::jsonb as value', values: [circular] },
      ]),
    ).rejects.toThrow(/circular/i);
    expect((await client.query('select count(*)::int as n from pipeline_notes where id = 7')).rows[0].n).toBe(
      0,
    );
    const [answer] = await runPipeline(client, [{ text: 'select $1::jsonb as value', values: [{ a: 1 }] }]);
    expect(answer.rows).toEqual([{ value: { a: 1 } }]);
  });

  it(`keeps at most ${preparedPerConnection} statements, closing the least lately used`, async () => {
    const textOf = (i: number) => `select $1::int as n, ${i} as statement`;
    for (let i = 0; i < preparedPerConnection + 20; i += 1) {
      await runPipeline(client, [{ text: textOf(i), values: [i] }]);
    }
    // The closes of the last evictions go with the next pipeline.
    const [again] = await runPipeline(client, [{ text: textOf(0), values: [5] }]);
    expect(again.rows).toEqual([{ n: 5, statement: 0 }]);
    const statements = await prepared();
    expect(statements.length).toBeLessThanOrEqual(preparedPerConnection);
    expect(statements.some((statement) => statement.statement === textOf(preparedPerConnection + 19))).toBe(
      true,
    );
  });
});
