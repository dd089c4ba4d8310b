import { and, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../test/factories';
import { openTestDatabase } from '../test/test-server';
import { builtOnce, queryBuilder, renderedOnce } from './built-once';
import type { DatabaseHandle } from './client';
import { users } from './schema';
import { withTenant } from './tenant';

let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;
let first: { clientId: string; userId: string };
let second: { clientId: string; userId: string };

beforeAll(async () => {
  const opened = await openTestDatabase(2);
  database = opened.database;
  close = opened.close;
  first = await createClientWithUser(database.db, { role: 'USC' });
  second = await createClientWithUser(database.db, { role: 'USC' });
});
afterAll(async () => {
  await close?.();
});

const userById = builtOnce<{ clientId: string; userId: string }>(() =>
  queryBuilder
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(and(eq(users.clientId, sql.placeholder('clientId')), eq(users.id, sql.placeholder('userId'))))
    .limit(1),
);

describe('builtOnce', () => {
  it('answers the same text each call, with that call’s values', () => {
    const dialect = new PgDialect();
    const a = dialect.sqlToQuery(userById({ clientId: first.clientId, userId: first.userId }));
    const b = dialect.sqlToQuery(userById({ clientId: second.clientId, userId: second.userId }));
    expect(a.sql).toBe(b.sql);
    expect(a.sql).toMatch(/"client_id" = \$1 and "users"."id" = \$2\) limit \$3$/);
    expect(a.params).toEqual([first.clientId, first.userId, 1]);
    expect(b.params).toEqual([second.clientId, second.userId, 1]);
  });

  it('finds each client’s own row through the same statement', async () => {
    for (const who of [first, second]) {
      const result = (await withTenant(database.db, who.clientId, (tx) =>
        tx.execute(userById({ clientId: who.clientId, userId: who.userId })),
      )) as unknown as { rows: Array<{ id: string; client_id: string }> };
      expect(result.rows).toEqual([{ id: who.userId, client_id: who.clientId }]);
    }
  });

  it('refuses a call that leaves a placeholder without a value', () => {
    expect(() => userById({ clientId: first.clientId } as never)).toThrow(/userId/);
  });
});

describe('renderedOnce', () => {
  it('renders a fragment without values once and reads the same in a statement', async () => {
    let builds = 0;
    const columns = renderedOnce(() => {
      builds += 1;
      return sql`${users.email}, lower(${users.email}) as lowered`;
    });
    const statement = () =>
      sql`select ${columns()} from ${users} where ${users.clientId} = ${first.clientId} and ${users.id} = ${first.userId}`;
    expect(new PgDialect().sqlToQuery(statement()).sql).toContain(
      '"users"."email", lower("users"."email") as lowered',
    );
    const [row] = await withTenant(database.db, first.clientId, async (tx) => {
      const answer = (await tx.execute(statement())) as unknown as {
        rows: Array<{ email: string; lowered: string }>;
      };
      return answer.rows;
    });
    expect(row.lowered).toBe(row.email.toLowerCase());
    columns();
    expect(builds).toBe(1);
  });

  it('refuses a fragment that carries a value', () => {
    const withValue = renderedOnce(() => sql`${users.email} = ${'someone@example.test'}`);
    expect(() => withValue()).toThrow(/carries values/);
  });
});
