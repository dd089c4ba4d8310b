import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { oneTimeCodes } from '../../db/schema';

export type OneTimeCodeRow = typeof oneTimeCodes.$inferSelect;

/** The purpose of codes sent by the forgot-password flow. */
export const passwordResetPurpose = 'PASSWORD_RESET_EMAIL';

/** The user's newest code of the purpose, used or not (for the resend countdown). */
export async function findLatestCode(
  db: Executor,
  clientId: string,
  userId: string,
  purpose: string,
): Promise<OneTimeCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.clientId, clientId),
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  return row;
}

/** How many codes of the purpose the user was sent since the moment. */
export async function countCodesSince(
  db: Executor,
  clientId: string,
  userId: string,
  purpose: string,
  since: Date,
): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.clientId, clientId),
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        gt(oneTimeCodes.createdAt, since),
      ),
    );
  return total;
}

/** Ends every open code of the purpose: only the newest one sent may work. */
export async function retireOpenCodes(
  db: Executor,
  clientId: string,
  userId: string,
  purpose: string,
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeCodes.clientId, clientId),
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
      ),
    );
}

export async function insertCode(
  db: Executor,
  values: { clientId: string; userId: string; purpose: string; codeHash: string; expiresAt: Date },
): Promise<OneTimeCodeRow> {
  const [row] = await db.insert(oneTimeCodes).values(values).returning();
  return row;
}

/** The code still waiting to be entered: not used, not yet exchanged for a reset token. */
export async function findOpenCode(
  db: Executor,
  clientId: string,
  userId: string,
  purpose: string,
): Promise<OneTimeCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.clientId, clientId),
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
        isNull(oneTimeCodes.resetTokenHash),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1)
    .for('update');
  return row;
}

/** Counts a wrong try; answers the tries so far. */
export async function recordWrongAttempt(db: Executor, clientId: string, codeId: string): Promise<number> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(and(eq(oneTimeCodes.clientId, clientId), eq(oneTimeCodes.id, codeId)))
    .returning({ attempts: oneTimeCodes.attempts });
  return row?.attempts ?? 0;
}

/** The code was right: it turns into the reset token's record, with the token's own expiry. */
export async function exchangeCodeForToken(
  db: Executor,
  clientId: string,
  codeId: string,
  resetTokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ resetTokenHash, expiresAt })
    .where(and(eq(oneTimeCodes.clientId, clientId), eq(oneTimeCodes.id, codeId)));
}

/** The record of a reset token, across clients: the last step names no user. */
export async function findByResetTokenUnscoped(
  db: Executor,
  resetTokenHash: string,
): Promise<OneTimeCodeRow | undefined> {
  const [row] = await db.select().from(oneTimeCodes).where(eq(oneTimeCodes.resetTokenHash, resetTokenHash));
  return row;
}

/** Uses the token up; false when it was already used (a second tab, a replay). */
export async function consumeResetToken(db: Executor, clientId: string, codeId: string): Promise<boolean> {
  const rows = await db
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.clientId, clientId), eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return rows.length === 1;
}
