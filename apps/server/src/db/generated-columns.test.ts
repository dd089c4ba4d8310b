import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-server';
import type { DatabaseHandle } from './client';

let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase();
  database = opened.database;
  close = opened.close;
});
afterAll(async () => {
  await close?.();
});

interface GeneratedColumn {
  table: string;
  column: string;
  expression: string;
}

describe('stored generated columns', () => {
  it('are computed with an empty search_path, as pg_restore computes them', async () => {
    // pg_restore copies rows with search_path set to '' and PostgreSQL computes each stored
    // generated column then. A function behind one that names a type or function of `public`
    // without its schema made the COPY of tickets fail (migration 0027, found by restoring a
    // dump of the 10k bench database). Each expression is run here over a row of nulls of its
    // table, in a session that has not called the functions before.
    const results = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local search_path = ''`);
      const found = (await tx.execute(sql`
        select c.relname as "table", a.attname as "column", pg_catalog.pg_get_expr(d.adbin, d.adrelid) as expression
          from pg_catalog.pg_attribute a
          join pg_catalog.pg_class c on c.oid = a.attrelid
          join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
         where a.attgenerated = 's' and not a.attisdropped
           and c.relnamespace = 'public'::pg_catalog.regnamespace
         order by 1, 2`)) as unknown as { rows: GeneratedColumn[] };
      const computed: string[] = [];
      for (const generated of found.rows) {
        await tx.execute(
          sql.raw(
            `select ${generated.expression} from (select (null::public.${generated.table}).*) as "${generated.table}"`,
          ),
        );
        computed.push(`${generated.table}.${generated.column}`);
      }
      return computed;
    });
    expect(results).toContain('tickets.summary_view');
  });
});
