import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accountActivities, sessions } from '../../db/schema';

export type AccountActivityRow = typeof accountActivities.$inferSelect;

/** The record of one session, if it has one. */
export async function findSessionActivity(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<AccountActivityRow | undefined> {
  const [row] = await db
    .select()
    .from(accountActivities)
    .where(and(eq(accountActivities.clientId, clientId), eq(accountActivities.sessionId, sessionId)));
  return row;
}

export async function insertActivity(
  db: Executor,
  values: {
    clientId: string;
    userId: string;
    sessionId: string;
    email: string;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<AccountActivityRow> {
  const [row] = await db.insert(accountActivities).values(values).returning();
  return row;
}

/** Refreshes what a later call knows about the session (it may come from a new address). */
export async function touchActivity(
  db: Executor,
  clientId: string,
  id: string,
  values: { ip: string | null; userAgent: string | null },
): Promise<AccountActivityRow> {
  const [row] = await db
    .update(accountActivities)
    .set({ ...values, lastSeenAt: new Date() })
    .where(and(eq(accountActivities.clientId, clientId), eq(accountActivities.id, id)))
    .returning();
  return row;
}

/** The client's records, or one user's when userId is given, oldest first. */
export async function listActivities(
  db: Executor,
  clientId: string,
  userId?: string,
): Promise<AccountActivityRow[]> {
  return db
    .select()
    .from(accountActivities)
    .where(
      and(
        eq(accountActivities.clientId, clientId),
        userId ? eq(accountActivities.userId, userId) : undefined,
      ),
    )
    .orderBy(asc(accountActivities.createdAt), asc(accountActivities.id));
}

/** Deletes every record of the e-mail within the client; returns how many went. */
export async function deleteActivitiesByEmail(
  db: Executor,
  clientId: string,
  email: string,
): Promise<number> {
  const rows = await db
    .delete(accountActivities)
    .where(
      and(
        eq(accountActivities.clientId, clientId),
        sql`lower(${accountActivities.email}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .returning({ id: accountActivities.id });
  return rows.length;
}

/** Deletes the record of a session that ends (sign-out). */
export async function deleteSessionActivity(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<void> {
  await db
    .delete(accountActivities)
    .where(and(eq(accountActivities.clientId, clientId), eq(accountActivities.sessionId, sessionId)));
}

/**
 * Deletes the records of sessions that ended without a sign-out (expired, revoked by a
 * password change or token theft, pruned), across clients: a maintenance job's sweep.
 */
export async function deleteEndedSessionActivities(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(accountActivities)
    .where(
      sql`not exists (select 1 from ${sessions} where ${sessions.id} = ${accountActivities.sessionId}
        and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${now})`,
    )
    .returning({ id: accountActivities.id });
  return rows.length;
}
