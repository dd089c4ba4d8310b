import { getTableColumns, type InferSelectModel, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client';

type RowMapper<T extends PgTable> = (raw: Record<string, unknown>) => InferSelectModel<T>;

const mappers = new WeakMap<PgTable, RowMapper<PgTable>>();

/**
 * Reads a table's row from an object keyed by column name (a driver row, or PostgreSQL's
 * `to_jsonb(row)`) the way Drizzle reads its own: property names, and each value through
 * its column's driver mapping (timestamps to Dates, bigints to numbers, arrays and jsonb as
 * they are). Worked out once per table: Drizzle's general mapping tests every field of
 * every row for its kind, which on a 50-row page cost more than the query.
 */
export function rowMapperOf<T extends PgTable>(table: T): RowMapper<T> {
  const known = mappers.get(table);
  if (known) return known as RowMapper<T>;
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    decode: (value: unknown) => column.mapFromDriverValue(value),
  }));
  const mapper = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, decode } of columns) {
      const value = raw[name];
      row[key] = value === null || value === undefined ? null : decode(value);
    }
    return row as InferSelectModel<T>;
  };
  mappers.set(table, mapper as RowMapper<PgTable>);
  return mapper;
}

/**
 * Runs a query built with Drizzle that selects the table's columns (plus any extra named
 * ones), and answers the driver's rows keyed by column name for `rowMapperOf`.
 */
export async function rawRowsOf(tx: Executor, query: SQLWrapper): Promise<Record<string, unknown>[]> {
  const result = (await tx.execute(query.getSQL())) as unknown as { rows: Record<string, unknown>[] };
  return result.rows;
}
