import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errorMessages } from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { badRequest, HttpError } from '../../platform/http/http-errors';
import {
  countCodesSince,
  exchangeCodeForToken,
  findLatestCode,
  findOpenCode,
  insertCode,
  recordWrongAttempt,
  retireOpenCodes,
} from './password-reset.repository';

/** The limits one reset flow puts on its codes (contracts passwordResetLimits, phoneResetLimits). */
export interface ResetCodeLimits {
  codeLength: number;
  codeTtlSeconds: number;
  resendSeconds: number;
  maxAttempts: number;
  resetTokenTtlSeconds: number;
  maxCodesPerHour: number;
}

export const tooManyRequests = () => new HttpError(429, errorMessages.tooManyRequests);
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The one-time codes of every reset flow (by e-mail, by phone), each under its own purpose
 * so no flow accepts another's code or token. Codes are hashed with a server key (a few
 * digits alone would be trivial to reverse), single-use, and dead after the wrong tries.
 */
export class ResetCodes {
  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly purpose: string,
    private readonly limits: ResetCodeLimits,
  ) {}

  /**
   * Makes a new code unless the resend countdown is running or the hourly quota is spent;
   * `deliver` queues it (mail, SMS) in the same transaction.
   */
  async issue(
    user: { id: string; clientId: string },
    deliver: (tx: Executor, code: string) => Promise<unknown>,
  ): Promise<{ resendInSeconds: number; expiresInSeconds: number }> {
    const limits = this.limits;
    const purpose = this.purpose;
    const code = randomInt(0, 10 ** limits.codeLength)
      .toString()
      .padStart(limits.codeLength, '0');
    const now = Date.now();
    await withTenant(this.db, user.clientId, async (tx) => {
      const latest = await findLatestCode(tx, user.clientId, user.id, purpose);
      if (latest && latest.createdAt.getTime() > now - limits.resendSeconds * 1000) throw tooManyRequests();
      const sentLastHour = await countCodesSince(
        tx,
        user.clientId,
        user.id,
        purpose,
        new Date(now - 3_600_000),
      );
      if (sentLastHour >= limits.maxCodesPerHour) throw tooManyRequests();
      await retireOpenCodes(tx, user.clientId, user.id, purpose);
      await insertCode(tx, {
        clientId: user.clientId,
        userId: user.id,
        purpose,
        codeHash: this.codeHash(user.id, code),
        expiresAt: new Date(now + limits.codeTtlSeconds * 1000),
      });
      await deliver(tx, code);
    });
    return { resendInSeconds: limits.resendSeconds, expiresInSeconds: limits.codeTtlSeconds };
  }

  /** Checks the code; a right one becomes a reset token, a wrong one counts towards the lock. */
  async exchange(
    user: { id: string; clientId: string },
    candidate: string,
  ): Promise<{ resetToken: string; expiresInSeconds: number }> {
    const limits = this.limits;
    const purpose = this.purpose;
    const resetToken = randomBytes(32).toString('base64url');
    // Decided inside, thrown outside: a wrong try must commit its count, not roll back.
    const outcome = await withTenant(this.db, user.clientId, async (tx) => {
      const code = await findOpenCode(tx, user.clientId, user.id, purpose);
      if (!code || code.expiresAt <= new Date()) return 'expired' as const;
      if (code.attempts >= limits.maxAttempts) return 'locked' as const;
      if (!this.matches(code.codeHash, this.codeHash(user.id, candidate.trim()))) {
        await recordWrongAttempt(tx, user.clientId, code.id);
        return 'incorrect' as const;
      }
      const expiresAt = new Date(Date.now() + limits.resetTokenTtlSeconds * 1000);
      await exchangeCodeForToken(tx, user.clientId, code.id, sha256(resetToken), expiresAt);
      return 'accepted' as const;
    });
    if (outcome === 'expired') throw badRequest(errorMessages.otpExpired);
    if (outcome === 'locked') throw tooManyRequests();
    if (outcome === 'incorrect') throw badRequest(errorMessages.otpIncorrect);
    return { resetToken, expiresInSeconds: limits.resetTokenTtlSeconds };
  }

  private codeHash(userId: string, code: string): string {
    return createHmac('sha256', this.secret).update(`${this.purpose}:${userId}:${code}`).digest('hex');
  }

  private matches(storedHash: string, candidateHash: string): boolean {
    const stored = Buffer.from(storedHash, 'hex');
    const candidate = Buffer.from(candidateHash, 'hex');
    return stored.length === candidate.length && timingSafeEqual(stored, candidate);
  }
}
