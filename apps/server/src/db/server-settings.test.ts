import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-server';
import type { DatabaseHandle } from './client';
import { postgresSettingsAdvice } from './server-settings';

let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase(1);
  database = opened.database;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

describe('postgresSettingsAdvice', () => {
  it('names each server-wide WAL setting below what the README asks for, and nothing on PGlite', async () => {
    const advice = await postgresSettingsAdvice(database);
    if (database.driver === 'pglite') {
      expect(advice).toEqual([]);
      return;
    }
    // What the server has, read apart from the function, decides what must be advised.
    const [facts] = await database.query<{ compression: string; size_mb: number }>(
      `select current_setting('wal_compression') as compression,
              (select setting::int from pg_settings where name = 'max_wal_size') as size_mb`,
    );
    const expected: Array<{ name: string; value: string; wanted: string }> = [];
    if (facts.compression === 'off') expected.push({ name: 'wal_compression', value: 'off', wanted: 'lz4' });
    if (facts.size_mb < 8192)
      expected.push({ name: 'max_wal_size', value: `${facts.size_mb}MB`, wanted: '8GB' });
    for (const item of advice) expect(item.why).not.toBe('');
    expect(advice.map(({ name, value, wanted }) => ({ name, value, wanted }))).toEqual(
      expect.arrayContaining(expected),
    );
    expect(advice).toHaveLength(expected.length);
  });
});
