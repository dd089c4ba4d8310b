import { fillPlaceholders, type SQL, type SQLChunk, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
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
    const chunks: SQLChunk[] = [sql.raw(rendered.pieces[0])];
    for (let i = 0; i < filled.length; i += 1)
      chunks.push(sql.param(filled[i]), sql.raw(rendered.pieces[i + 1]));
    return sql.join(chunks);
  };
}

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
