import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { builtOnce, queryBuilder } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rowMapperOf } from '../../db/json-row';
import { clients, users } from '../../db/schema';
import { readTogether } from '../../db/tenant-connections';

export type UserRow = typeof users.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

/**
 * The credential holder with this email, across all clients: sign-in happens before the
 * tenant is known. The live one when there is one; otherwise the most recently deleted, so
 * its sign-in can say the account was deleted. Membership rows of other clients (which
 * share the holder's credentials) are never returned.
 */
export async function findUserForSignIn(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = ${email.trim().toLowerCase()}`,
        sql`${users.sharedLoginUserId} is null`,
      ),
    )
    .orderBy(sql`${users.deletedAt} desc nulls first`)
    .limit(1);
  return row;
}

/**
 * The id of the row that holds this person's credentials (password, 2-step, lockout): a
 * membership row points to it, a holder is its own. Credential operations act on it.
 */
export function credentialHolderId(row: Pick<UserRow, 'id' | 'sharedLoginUserId'>): string {
  return row.sharedLoginUserId ?? row.id;
}

/**
 * The credential holder of a row. A membership row's holder lives in another client, so
 * pass the plain database (not a tenant transaction), as sign-in does before the tenant is known.
 */
export async function findCredentialHolder(db: Executor, row: UserRow): Promise<UserRow | undefined> {
  if (row.sharedLoginUserId === null) return row;
  const [holder] = await db.select().from(users).where(eq(users.id, row.sharedLoginUserId));
  return holder;
}

/** The statements behind every users/me, rendered once (`builtOnce`) and sent together. */
const userById = builtOnce<{ clientId: string; userId: string }>(() =>
  queryBuilder
    .select()
    .from(users)
    .where(and(eq(users.clientId, sql.placeholder('clientId')), eq(users.id, sql.placeholder('userId')))),
);
const clientById = builtOnce<{ clientId: string }>(() =>
  queryBuilder
    .select()
    .from(clients)
    .where(eq(clients.id, sql.placeholder('clientId'))),
);

/** A user of the client together with the client: one round trip on PostgreSQL (`readTogether`). */
export async function findUserWithClient(
  db: Executor,
  clientId: string,
  userId: string,
): Promise<{ user: UserRow; client: ClientRow } | undefined> {
  const [userRows, clientRows] = await readTogether(db, [
    userById({ clientId, userId }),
    clientById({ clientId }),
  ]);
  if (!userRows[0] || !clientRows[0]) return undefined;
  return { user: userOfRow(userRows[0]), client: rowMapperOf(clients)(clientRows[0]) };
}

/** The statement behind findUser, to read beside others (`readTogether`); rows by `userOfRow`. */
export function userQuery(clientId: string, userId: string): SQL {
  return userById({ clientId, userId });
}

/** A user row as `readTogether` gives it, typed. */
export const userOfRow = rowMapperOf(users);

export async function findUser(db: Executor, clientId: string, userId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
  return row;
}

export async function findClient(db: Executor, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId));
  return row;
}

export async function listUsers(
  db: Executor,
  clientId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const rows = await db
    .select()
    .from(users)
    .where(eq(users.clientId, clientId))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(users).where(eq(users.clientId, clientId));
  return { rows, total };
}

export async function updateUser(
  db: Executor,
  clientId: string,
  userId: string,
  changes: Partial<
    Pick<
      UserRow,
      | 'passwordHash'
      | 'passwordHistory'
      | 'agentStatus'
      | 'lastSignInAt'
      | 'consentAgreedAt'
      | 'consentTimestamp'
    >
  >,
): Promise<void> {
  await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
}

/**
 * Users of the client a chat may be assigned to (core-inbox §6): active, with an inbox
 * role, and not Supervisor 1, who watches but is never assigned.
 */
const assignable = (clientId: string) =>
  and(
    eq(users.clientId, clientId),
    eq(users.status, 'ACTIVE'),
    inArray(users.role, ['OWN', 'ADC', 'USC']),
    sql`${users.csPosition} is distinct from 'SUPERVISOR_1'`,
  );

export async function findAssignableUser(
  db: Executor,
  clientId: string,
  userId: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(assignable(clientId), eq(users.id, userId)));
  return row;
}

export async function listAssignableUsers(db: Executor, clientId: string): Promise<UserRow[]> {
  return db.select().from(users).where(assignable(clientId)).orderBy(asc(users.name), asc(users.id));
}
