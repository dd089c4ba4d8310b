import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { refreshTokens, sessions } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export async function insertSession(
  db: Executor,
  values: { clientId: string; userId: string; userAgent: string | null; ip: string | null; expiresAt: Date },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning();
  return row;
}

export async function insertRefreshToken(
  db: Executor,
  values: { clientId: string; sessionId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** The refresh token and its session, by the token's hash, across clients. */
export async function findRefreshTokenUnscoped(
  db: Executor,
  tokenHash: string,
): Promise<{ token: RefreshTokenRow; session: SessionRow } | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash));
  return row ? { token: row.refresh_tokens, session: row.sessions } : undefined;
}

/**
 * Reads the token again under a row lock, so concurrent refreshes of one token take turns
 * and each sees whether (and when) an earlier one used it. Call inside the tenant transaction.
 */
export async function lockRefreshToken(
  db: Executor,
  clientId: string,
  tokenId: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.clientId, clientId), eq(refreshTokens.id, tokenId)))
    .for('update');
  return row;
}

/** The session as it is now (not as read before the transaction), scoped to the client. */
export async function findSession(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.clientId, clientId), eq(sessions.id, sessionId)));
  return row;
}

/** The session under a row lock, so work tied to it (its activity record) happens once. */
export async function lockSession(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.clientId, clientId), eq(sessions.id, sessionId)))
    .for('update');
  return row;
}

/** Marks the token used; false when another request used it first. */
export async function markRefreshTokenUsed(
  db: Executor,
  clientId: string,
  tokenId: string,
): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(
      and(eq(refreshTokens.clientId, clientId), eq(refreshTokens.id, tokenId), isNull(refreshTokens.usedAt)),
    )
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeSession(
  db: Executor,
  clientId: string,
  sessionId: string,
  reason: string,
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.clientId, clientId), eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** Revokes every open session of the user; returns their ids. */
export async function revokeUserSessions(
  db: Executor,
  clientId: string,
  userId: string,
  reason: string,
): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.clientId, clientId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
}

/** Deletes sessions that expired, or were revoked, before the cut-off (across clients). */
export async function deleteStaleSessions(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before)))
    .returning({ id: sessions.id });
  return rows.length;
}

export const sessionIsOpen = (session: SessionRow, now = new Date()) =>
  session.revokedAt === null && session.expiresAt > now;
