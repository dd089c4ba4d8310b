import { getTableColumns, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A row that PostgreSQL answered as `to_jsonb(row)` (from a function that does several
 * statements in one round trip), read the way Drizzle reads the table's own rows: column
 * names to property names, and each value through its column's driver mapping (timestamps
 * to Dates, bigints to numbers, arrays and jsonb as they are).
 */
export function rowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
