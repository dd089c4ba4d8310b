import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-server';
import type { DatabaseHandle } from './client';

let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase(2);
  database = opened.database;
  close = opened.close;
  await database.query('create table if not exists sql_transaction_probe (n int not null)');
});
afterAll(async () => {
  await database?.query('drop table if exists sql_transaction_probe');
  await close?.();
});

const count = async () =>
  (await database.query<{ n: number }>('select count(*)::int as n from sql_transaction_probe'))[0].n;

describe('sqlTransaction', () => {
  it('commits with the last statement, and answers each statement its rows', async () => {
    const before = await count();
    const rows = await database.sqlTransaction(async (tx) => {
      const [first] = await tx.query<{ n: number }>(
        'insert into sql_transaction_probe (n) values ($1) returning n',
        [1],
      );
      const last = await tx.queryAndCommit<{ n: number }>(
        'insert into sql_transaction_probe (n) values ($1), ($2) returning n',
        [first.n + 1, first.n + 2],
      );
      return last.map((row) => row.n);
    });
    expect(rows).toEqual([2, 3]);
    expect(await count()).toBe(before + 3);
  });

  it('commits when the work returns without a last statement', async () => {
    const before = await count();
    await database.sqlTransaction((tx) => tx.query('insert into sql_transaction_probe (n) values (4)'));
    expect(await count()).toBe(before + 1);
  });

  it('rolls back everything when the work throws, or its last statement fails', async () => {
    const before = await count();
    await expect(
      database.sqlTransaction(async (tx) => {
        await tx.query('insert into sql_transaction_probe (n) values (5)');
        throw new Error('the work failed after writing');
      }),
    ).rejects.toThrow('the work failed');
    await expect(
      database.sqlTransaction(async (tx) => {
        await tx.query('insert into sql_transaction_probe (n) values (6)');
        await tx.queryAndCommit('insert into sql_transaction_probe (n) values (null)');
      }),
    ).rejects.toThrow(/null/);
    expect(await count()).toBe(before);
    // The connection went back to the pool usable.
    await database.sqlTransaction((tx) => tx.query('insert into sql_transaction_probe (n) values (7)'));
    expect(await count()).toBe(before + 1);
  });

  it('refuses a statement after the commit', async () => {
    await expect(
      database.sqlTransaction(async (tx) => {
        await tx.queryAndCommit('select 1');
        await tx.query('select 2');
      }),
    ).rejects.toThrow(/nothing may follow/);
  });
});
