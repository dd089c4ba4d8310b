import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../test/factories';
import { openTestDatabase } from '../test/test-server';
import type { DatabaseHandle, Transaction } from './client';
import { users } from './schema';
import { readInTenant, withTenant } from './tenant';
import { readTogether, runAtCommit, runBatchAtCommit, withGenericPlan } from './tenant-connections';

let database: DatabaseHandle;
let close: (() => Promise<void>) | undefined;
let mine: { clientId: string; userId: string };
let theirs: { clientId: string; userId: string };

beforeAll(async () => {
  const opened = await openTestDatabase(2);
  database = opened.database;
  close = opened.close;
  mine = await createClientWithUser(database.db, { role: 'USC' });
  theirs = await createClientWithUser(database.db, { role: 'USC' });
});
afterAll(async () => {
  await close?.();
});

const whoAmI = sql`select current_user as "user", current_setting('app.client_id', true) as "clientId", current_setting('random_page_cost') as "randomPageCost"`;

describe('withTenant', () => {
  it('runs as app_tenant for the one client, and row security hides every other client', async () => {
    const seen = await withTenant(database.db, mine.clientId, async (tx) => {
      const result = (await tx.execute(whoAmI)) as unknown as {
        rows: Array<{ user: string; clientId: string }>;
      };
      const [identity] = result.rows;
      const visible = await tx.select({ id: users.id, clientId: users.clientId }).from(users);
      return { identity, visible };
    });
    expect(seen.identity).toMatchObject({ randomPageCost: '1.1' });
    if (database.driver === 'postgres')
      expect(seen.identity).toMatchObject({ user: 'app_tenant', clientId: mine.clientId });
    else expect(seen.identity.clientId).toBe(mine.clientId);
    expect(seen.visible.map((row) => row.id)).toContain(mine.userId);
    if (database.driver === 'postgres')
      expect(seen.visible.every((row) => row.clientId === mine.clientId)).toBe(true);
  });

  it('leaves neither role nor tenant behind on the pooled connection', async () => {
    for (let i = 0; i < 4; i += 1)
      await withTenant(database.db, mine.clientId, async (tx) => tx.execute(whoAmI));
    const [after] = await database.query<{ user: string; clientId: string | null }>(
      'select current_user as "user", current_setting(\'app.client_id\', true) as "clientId"',
    );
    expect(after.user).not.toBe('app_tenant');
    expect(after.clientId ?? '').toBe('');
  });

  it('rolls back the work when it fails, and the connection serves the next caller', async () => {
    await expect(
      withTenant(database.db, mine.clientId, async (tx) => {
        await tx.update(users).set({ name: 'Renamed' }).where(eq(users.id, mine.userId));
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    for (let i = 0; i < 4; i += 1) {
      const [row] = await withTenant(database.db, mine.clientId, (tx) =>
        tx.select({ name: users.name }).from(users).where(eq(users.id, mine.userId)),
      );
      expect(row.name).not.toBe('Renamed');
    }
  });

  it("cannot change another client's rows even when asked for them by id", async () => {
    const changed = await withTenant(database.db, mine.clientId, (tx) =>
      tx.update(users).set({ name: 'Taken' }).where(eq(users.id, theirs.userId)).returning({ id: users.id }),
    );
    if (database.driver === 'postgres') expect(changed).toEqual([]);
    const [row] = await database.query<{ name: string }>('select name from users where id = $1', [
      theirs.userId,
    ]);
    if (database.driver === 'postgres') expect(row.name).not.toBe('Taken');
  });
});

describe('readInTenant', () => {
  it('reads as app_tenant in the one client, statement after statement, and leaves nothing behind', async () => {
    const seen = await readInTenant(database.db, mine.clientId, async (tx) => {
      const first = (await tx.execute(whoAmI)) as unknown as {
        rows: Array<{ user: string; clientId: string }>;
      };
      const visible = await tx.select({ id: users.id, clientId: users.clientId }).from(users);
      const second = (await tx.execute(whoAmI)) as unknown as {
        rows: Array<{ user: string; clientId: string }>;
      };
      return { first: first.rows[0], second: second.rows[0], visible };
    });
    expect(seen.first.clientId).toBe(mine.clientId);
    expect(seen.second.clientId).toBe(mine.clientId);
    expect(seen.first).toMatchObject({ randomPageCost: '1.1' });
    expect(seen.visible.map((row) => row.id)).toContain(mine.userId);
    if (database.driver === 'postgres') {
      expect([seen.first.user, seen.second.user]).toEqual(['app_tenant', 'app_tenant']);
      expect(seen.visible.every((row) => row.clientId === mine.clientId)).toBe(true);
      const [after] = await database.query<{ user: string; clientId: string | null }>(
        'select current_user as "user", current_setting(\'app.client_id\', true) as "clientId"',
      );
      expect(after.user).not.toBe('app_tenant');
      expect(after.clientId ?? '').toBe('');
    }
  });

  it('runs a named (prepared) statement in the tenant too', async () => {
    const seen = await readInTenant(database.db, mine.clientId, (tx) =>
      tx
        .select({ id: users.id, clientId: users.clientId, role: sql<string>`current_user` })
        .from(users)
        .prepare('tenant_test_named_read')
        .execute(),
    );
    expect(seen.map((row) => row.id)).toContain(mine.userId);
    if (database.driver === 'postgres') {
      expect(seen.every((row) => row.clientId === mine.clientId && row.role === 'app_tenant')).toBe(true);
    }
  });

  it('refuses a write on PostgreSQL, and the connection serves the next caller', async () => {
    if (database.driver !== 'postgres') return;
    await expect(
      readInTenant(database.db, mine.clientId, (tx) =>
        tx.update(users).set({ name: 'Written in a read' }).where(eq(users.id, mine.userId)),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/read-only transaction/) } });
    const [row] = await readInTenant(database.db, mine.clientId, (tx) =>
      tx.select({ name: users.name }).from(users).where(eq(users.id, mine.userId)),
    );
    expect(row.name).not.toBe('Written in a read');
  });
});

describe('runAtCommit', () => {
  const renamed = (name: string) => sql`update users set name = ${name} where id = ${mine.userId}`;
  const nameNow = async () => {
    const [row] = await database.query<{ name: string }>('select name from users where id = $1', [
      mine.userId,
    ]);
    return row.name;
  };

  it('runs the statement with the commit, after the work, even when the work ran none', async () => {
    await withTenant(database.db, mine.clientId, async (tx) => {
      await runAtCommit(tx, renamed("Deferred 'one'"));
      await tx.update(users).set({ name: 'Direct' }).where(eq(users.id, mine.userId));
    });
    // On PostgreSQL the deferred statement runs last; elsewhere at once, before the update.
    expect(await nameNow()).toBe(database.driver === 'postgres' ? "Deferred 'one'" : 'Direct');
    await withTenant(database.db, mine.clientId, (tx) => runAtCommit(tx, renamed('Only deferred')));
    expect(await nameNow()).toBe('Only deferred');
  });

  it('rolls the whole transaction back when the deferred statement fails', async () => {
    const failure = await withTenant(database.db, mine.clientId, async (tx) => {
      await tx.update(users).set({ name: 'Kept only with the commit' }).where(eq(users.id, mine.userId));
      await runAtCommit(tx, sql`select 1 / (select count(*) - count(*) from users)`);
    }).catch((error: Error) => error);
    // Run at once (PGlite) the failure comes wrapped by Drizzle; with the commit it is PostgreSQL's own.
    expect(`${failure?.message} ${(failure as Error & { cause?: Error })?.cause?.message}`).toMatch(
      /division by zero/,
    );
    expect(await nameNow()).not.toBe('Kept only with the commit');
    const [row] = await withTenant(database.db, mine.clientId, (tx) =>
      tx.select({ name: users.name }).from(users).where(eq(users.id, mine.userId)),
    );
    expect(row.name).toBe(await nameNow());
  });
});

describe('runBatchAtCommit', () => {
  const names = {};
  /** Renames the user to the items joined, and says which items each statement was made of. */
  const made: string[][] = [];
  const renameAll = (items: ReadonlyArray<string>) => {
    made.push([...items]);
    return sql`update users set name = ${items.join('+')} where id = ${mine.userId}`;
  };
  const nameNow = async () =>
    (await database.query<{ name: string }>('select name from users where id = $1', [mine.userId]))[0].name;

  it("makes one statement of a transaction's calls on PostgreSQL, run with the commit", async () => {
    made.length = 0;
    await withTenant(database.db, mine.clientId, async (tx) => {
      await runBatchAtCommit(tx, names, ['a'], renameAll);
      await runBatchAtCommit(tx, names, ['b', 'c'], renameAll);
      await tx.update(users).set({ name: 'Direct' }).where(eq(users.id, mine.userId));
      await runBatchAtCommit(tx, names, ['d'], renameAll);
    });
    if (database.driver === 'postgres') {
      expect(made).toEqual([['a', 'b', 'c', 'd']]);
      expect(await nameNow()).toBe('a+b+c+d');
    } else {
      // Nothing to defer to: each call's statement at once.
      expect(made).toEqual([['a'], ['b', 'c'], ['d']]);
      expect(await nameNow()).toBe('d');
    }
  });

  it('leaves nothing of a rolled-back transaction to the next one on the connection', async () => {
    made.length = 0;
    const failure = await withTenant(database.db, mine.clientId, async (tx) => {
      await runBatchAtCommit(tx, names, ['lost'], renameAll);
      throw new Error('given up');
    }).catch((error: Error) => error);
    expect(failure?.message).toBe('given up');
    await withTenant(database.db, mine.clientId, (tx) => runBatchAtCommit(tx, names, ['next'], renameAll));
    expect(await nameNow()).toBe('next');
    expect(made.at(-1)).toEqual(['next']);
  });
});

describe('readTogether', () => {
  it("answers each statement's rows, in a read and in a transaction, inside the tenant", async () => {
    for (const run of [readInTenant, withTenant]) {
      const [whoRows, userRows, theirRows] = await run(database.db, mine.clientId, (tx) =>
        readTogether(tx, [
          whoAmI,
          sql`select id, client_id, created_at from users where id = ${mine.userId}`,
          sql`select id from users where id = ${theirs.userId}`,
        ]),
      );
      expect(whoRows[0].clientId).toBe(mine.clientId);
      expect(userRows).toHaveLength(1);
      expect(userRows[0]).toMatchObject({ id: mine.userId, client_id: mine.clientId });
      // Timestamps come back as text, as Drizzle's own reads give them to the row mappers.
      expect(typeof userRows[0].created_at).toBe('string');
      if (database.driver === 'postgres') expect(theirRows).toEqual([]);
    }
  });
});

describe('withGenericPlan', () => {
  type Plans = { mode: string; plans: { generic: number; custom: number } | null };
  /** The plans PostgreSQL made for the statement tagged `tag` on this connection, and the plan mode now. */
  const plansOf = async (tx: Transaction, tag: string) => {
    const result = (await tx.execute(
      sql`select current_setting('plan_cache_mode') as mode,
            (select json_build_object('generic', generic_plans, 'custom', custom_plans)
               from pg_prepared_statements where statement like ${`%-- ${tag}`}) as plans`,
    )) as unknown as { rows: Plans[] };
    return result.rows[0];
  };
  const page = (tag: string) =>
    sql`select id from users where client_id = ${mine.clientId} order by id limit ${5} -- ${sql.raw(tag)}`;

  it('has a marked read planned once for all its values on PostgreSQL, and the next read planned as usual', async () => {
    const { generic, custom } = await readInTenant(database.db, mine.clientId, async (tx) => {
      for (let i = 0; i < 3; i += 1) {
        const marked = (await tx.execute(withGenericPlan(page('marked')))) as unknown as { rows: unknown[] };
        const plain = (await tx.execute(page('plain'))) as unknown as { rows: unknown[] };
        // The same rows either way.
        expect(marked.rows).toEqual(plain.rows);
        expect(marked.rows).toEqual([{ id: mine.userId }]);
      }
      return { generic: await plansOf(tx, 'marked'), custom: await plansOf(tx, 'plain') };
    });
    if (database.driver !== 'postgres') return;
    // The mode was the marked statement's own: the read after it runs under the default.
    expect(custom.mode).toBe('auto');
    expect(generic.plans).toMatchObject({ custom: 0 });
    expect(generic.plans?.generic).toBeGreaterThan(0);
    // Under the default, a statement's first five runs are planned for their values.
    expect(custom.plans).toEqual({ generic: 0, custom: 3 });
  });

  it('is planned as usual inside a transaction, where the setting would outlive the statement', async () => {
    const plans = await withTenant(database.db, mine.clientId, async (tx) => {
      await tx.execute(withGenericPlan(page('in-transaction')));
      return plansOf(tx, 'in-transaction');
    });
    expect(plans.mode).toBe('auto');
    if (database.driver === 'postgres') expect(plans.plans).toEqual({ generic: 0, custom: 1 });
  });
});
