import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl } from '../test/test-server';
import { type DatabaseHandle, openDatabase } from './client';
import { inlineParams, literalOf } from './inline-params';

describe('inlineParams', () => {
  it('writes each $n as its literal, and leaves quoted text, identifiers, bodies and comments alone', () => {
    const text = [
      `select $1, '$2 it''s', "col$2", $$ $1 $$, $body$ $2 $body$, E'\\' $1', -- $2`,
      `/* $1 */ x$1, $2::int`,
    ].join('\n');
    expect(inlineParams(text, ['a', 7])).toBe(
      [
        `select 'a', '$2 it''s', "col$2", $$ $1 $$, $body$ $2 $body$, E'\\' $1', -- $2`,
        `/* $1 */ x$1, '7'::int`,
      ].join('\n'),
    );
  });

  it('refuses a placeholder with no value, and text with a NUL', () => {
    expect(() => inlineParams('select $2', ['only one'])).toThrow('$2 has no value');
    expect(() => literalOf('a\0b')).toThrow('NUL');
  });

  it('quotes values the way node-postgres sends them', () => {
    expect(literalOf(null)).toBe('NULL');
    expect(literalOf(undefined)).toBe('NULL');
    expect(literalOf("O'Brien")).toBe("'O''Brien'");
    expect(literalOf('a\\b')).toBe(" E'a\\\\b'");
    expect(literalOf(['x', 'y'])).toBe(`'{"x","y"}'`);
    expect(literalOf({ a: 1 })).toBe(`'{"a":1}'`);
    expect(literalOf(12)).toBe("'12'");
    expect(literalOf(true)).toBe("'true'");
  });
});

describe('inlineParams against PostgreSQL', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const test = await createTestDatabaseUrl();
    drop = test.drop;
    database = await openDatabase({ databaseUrl: test.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const awkward = [
    "it's",
    "''; drop table users; --",
    'back\\slash \\x00 \\\\ end\\',
    "E'\\''",
    '$1 $$ $tag$ -- /* */',
    'Halo kak 👋 apakah ukuran M masih ada? 日本語',
    'line\nbreak\ttab\r',
    '',
  ];

  it('reads back every awkward text exactly as the parameterised statement does', async () => {
    for (const text of awkward) {
      const [bound] = await database.query<{ value: string }>('select $1::text as value', [text]);
      const [inlined] = await database.query<{ value: string }>(
        inlineParams('select $1::text as value', [text]),
      );
      expect(inlined.value).toBe(text);
      expect(inlined.value).toBe(bound.value);
    }
  });

  it('reads back arrays, JSON, dates, numbers and NULL the same way', async () => {
    const when = new Date('2026-11-23T06:45:12.345Z');
    const values = [awkward, { note: awkward[1], list: [1, 2] }, when, 12345678901, null, true];
    const statement =
      'select $1::text[] as list, $2::jsonb as doc, $3::timestamptz as at, $4::bigint as big, $5::text as nothing, $6::boolean as yes';
    const [bound] = await database.query(statement, values);
    const [inlined] = await database.query(inlineParams(statement, values));
    expect(inlined).toEqual(bound);
    expect(inlined.list).toEqual(awkward);
    expect(new Date(inlined.at as string).getTime()).toBe(when.getTime());
  });
});
