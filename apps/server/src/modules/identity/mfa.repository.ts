import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { clients, mfaRecoveryCodes, users } from '../../db/schema';

/** Wrong passwords or codes in a row that lock sign-in. */
export const signInFailureLimit = 5;
/** How long a locked account stays locked. */
export const lockoutMinutes = 15;

/**
 * Counts one more wrong password or code; the fifth in a row locks the account for the
 * window and starts the count again, so the next window needs five more.
 */
export async function recordSignInFailure(db: Executor, clientId: string, userId: string): Promise<void> {
  await db
    .update(users)
    .set({
      failedSignInCount: sql`case when ${users.failedSignInCount} + 1 >= ${signInFailureLimit} then 0 else ${users.failedSignInCount} + 1 end`,
      lockedUntil: sql`case when ${users.failedSignInCount} + 1 >= ${signInFailureLimit} then now() + make_interval(mins => ${lockoutMinutes}) else ${users.lockedUntil} end`,
    })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
}

/** A full sign-in succeeded: the failure count and any lock are cleared. */
export async function clearSignInFailures(db: Executor, clientId: string, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ failedSignInCount: 0, lockedUntil: null, lastSignInAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
}

/** Stores a sealed secret; 2-step stays off until `enableMfa`. */
export async function storePendingMfaSecret(
  db: Executor,
  clientId: string,
  userId: string,
  sealedSecret: string,
): Promise<void> {
  await db
    .update(users)
    .set({ mfaSecret: sealedSecret, mfaEnabledAt: null, updatedAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
}

/** Turns 2-step on and replaces the recovery codes with new ones, in one transaction. */
export async function enableMfa(
  db: Executor,
  clientId: string,
  userId: string,
  recoveryCodeHashes: string[],
): Promise<void> {
  await db
    .update(users)
    .set({ mfaEnabledAt: new Date(), updatedAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
  await db
    .delete(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.clientId, clientId), eq(mfaRecoveryCodes.userId, userId)));
  await db
    .insert(mfaRecoveryCodes)
    .values(recoveryCodeHashes.map((codeHash) => ({ clientId, userId, codeHash })));
}

/** Turns 2-step off: the secret and every recovery code are forgotten. */
export async function disableMfa(db: Executor, clientId: string, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ mfaSecret: null, mfaEnabledAt: null, updatedAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
  await db
    .delete(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.clientId, clientId), eq(mfaRecoveryCodes.userId, userId)));
}

/**
 * Spends an unused recovery code: true when it existed and was unused. The update is
 * the check, so two requests with the same code cannot both succeed.
 */
export async function useRecoveryCode(
  db: Executor,
  clientId: string,
  userId: string,
  codeHash: string,
): Promise<boolean> {
  const spent = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(mfaRecoveryCodes.clientId, clientId),
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return spent.length > 0;
}

/** The owner's switch for the whole client. */
export async function setClientRequiresMfa(db: Executor, clientId: string, required: boolean): Promise<void> {
  await db.update(clients).set({ requireMfa: required }).where(eq(clients.id, clientId));
}

/**
 * Records a TOTP step as used when it is newer than the last one; false when this step (or
 * a later one) was already used, so a code seen once cannot open a second session.
 */
export async function claimTotpStep(
  db: Executor,
  clientId: string,
  userId: string,
  step: number,
): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ mfaLastUsedStep: step })
    .where(
      and(
        eq(users.clientId, clientId),
        eq(users.id, userId),
        or(isNull(users.mfaLastUsedStep), lt(users.mfaLastUsedStep, step)),
      ),
    )
    .returning({ id: users.id });
  return claimed.length > 0;
}
