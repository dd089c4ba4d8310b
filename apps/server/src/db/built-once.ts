import {
  fillPlaceholders,
  getTableColumns,
  type SQL,
  type SQLChunk,
  type SQLWrapper,
  StringChunk,
  sql,
} from 'drizzle-orm';
import { PgDialect, type PgTable, QueryBuilder } from 'drizzle-orm/pg-core';
import { splitAtParams } from './inline-params';

const dialect = new PgDialect();

/** Builds queries without a database, for `builtOnce`. */
export const queryBuilder = new QueryBuilder();

/**
 * A query Drizzle renders once, with `sql.placeholder(name)` wherever a value changes from
 * call to call; each call answers the same statement text with that call's values. Rendering
 * a select of a wide table (every column's name, alias and kind, checked one by one) cost the
 * room page more server time than PostgreSQL took to run it. Placeholder values are sent as
 * given (no column mapping): pass ids, numbers and ISO strings.
 */
export function builtOnce<Values extends Record<string, unknown>>(
  build: () => SQLWrapper,
): (values: Values) => SQL {
  let rendered: { pieces: string[]; params: unknown[] } | undefined;
  return (values) => {
    if (!rendered) {
      const query = dialect.sqlToQuery(build().getSQL());
      const { pieces, params } = splitAtParams(query.sql);
      rendered = { pieces, params: params.map((index) => query.params[index]) };
    }
    const filled = fillPlaceholders(rendered.params, values);
    // Text as bare string chunks and values as they are: Drizzle renders a nested SQL or a
    // Param only after testing it against each kind of chunk in turn.
    const chunks: SQLChunk[] = [new StringChunk(rendered.pieces[0])];
    for (let i = 0; i < filled.length; i += 1)
      chunks.push(valueChunk(filled[i]), new StringChunk(rendered.pieces[i + 1]));
    return sql.fromList(chunks);
  };
}

/** A value as a chunk: a string, number, boolean or null as it is (Drizzle sends it as a parameter). */
const valueChunk = (value: unknown): SQLChunk =>
  value === null || (typeof value !== 'object' && typeof value !== 'function')
    ? (value as SQLChunk)
    : sql.param(value);

/**
 * A fragment without values (column lists, expressions over columns) rendered by Drizzle once
 * and reused as raw SQL: a wide expression (a row written as JSON) is otherwise walked chunk by
 * chunk, each checked for its kind, on every request. A fragment that carries a value is
 * refused, since its value would be frozen into the text.
 */
export function renderedOnce(build: () => SQLWrapper): () => SQL {
  let rendered: SQL | undefined;
  return () => {
    if (!rendered) {
      const query = dialect.sqlToQuery(build().getSQL());
      if (query.params.length > 0) throw new Error('renderedOnce: the fragment carries values');
      rendered = sql.raw(query.sql);
    }
    return rendered;
  };
}

/**
 * A table's columns each as its qualified name (`"tickets"."status"`), rendered once: for
 * conditions and orders built on every request, where Drizzle would otherwise check each
 * column's kind and table again per use. Values beside them go as plain parameters, so pass
 * what the driver sends (ids, numbers, ISO strings), not values a column maps.
 */
export function renderedColumns<Table extends PgTable>(
  table: Table,
): () => Record<keyof Table['_']['columns'], StringChunk> {
  let rendered: Record<string, StringChunk> | undefined;
  return () => {
    if (!rendered) {
      rendered = {};
      for (const [key, column] of Object.entries(getTableColumns(table)))
        rendered[key] = new StringChunk(dialect.sqlToQuery(sql`${column}`).sql);
    }
    return rendered as Record<keyof Table['_']['columns'], StringChunk>;
  };
}
