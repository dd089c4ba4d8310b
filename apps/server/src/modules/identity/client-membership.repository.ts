import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { clients, users } from '../../db/schema';
import type { ClientRow, UserRow } from './user.repository';

/*
 * A person's rows live in several clients, so these reads run on the plain database (not a
 * tenant transaction), like sign-in's. Every query is scoped to one person: the holder's row
 * and the membership rows that point to it.
 */

/** The holder's row and every membership row pointing to it. */
const rowsOfPerson = (holderId: string) => or(eq(users.id, holderId), eq(users.sharedLoginUserId, holderId));

/** A row the person may enter: not deleted and active. */
const enterable = and(isNull(users.deletedAt), eq(users.status, 'ACTIVE'));

/** The clients the person can enter with their row there; the holder's client first, then by name. */
export async function listEnterableClients(
  db: Executor,
  holderId: string,
): Promise<Array<{ user: UserRow; client: ClientRow }>> {
  const rows = await db
    .select()
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(rowsOfPerson(holderId), enterable))
    .orderBy(sql`${users.sharedLoginUserId} is not null`, asc(clients.name), asc(clients.id));
  return rows.map((row) => ({ user: row.users, client: row.clients }));
}

/** How many clients the person can enter (one indexed count, for sign-in and users/me). */
export async function countEnterableClients(db: Executor, holderId: string): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(users)
    .where(and(rowsOfPerson(holderId), enterable));
  return total;
}

/**
 * How many clients the person of this row can enter, in one query: the row's holder is
 * found inside it (a membership row points to it, a holder is its own). For token refresh.
 */
export async function countEnterableClientsOfRow(db: Executor, userId: string): Promise<number> {
  const holder = sql`coalesce((select ${users.sharedLoginUserId} from ${users} where ${users.id} = ${userId}), ${userId}::uuid)`;
  const [{ total }] = await db
    .select({ total: count() })
    .from(users)
    .where(and(or(eq(users.id, holder), eq(users.sharedLoginUserId, holder)), enterable));
  return total;
}

/**
 * The person's row in the client, live first, else the most recently deleted (so the
 * answer can say it was deleted); undefined when the person never belonged there.
 */
export async function findPersonRowInClient(
  db: Executor,
  holderId: string,
  clientId: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(rowsOfPerson(holderId), eq(users.clientId, clientId)))
    .orderBy(sql`${users.deletedAt} desc nulls first`)
    .limit(1);
  return row;
}

/** Every row of the person in every client, deleted ones too: what "every session" covers. */
export async function listPersonRows(
  db: Executor,
  holderId: string,
): Promise<Array<Pick<UserRow, 'id' | 'clientId'>>> {
  return db.select({ id: users.id, clientId: users.clientId }).from(users).where(rowsOfPerson(holderId));
}
