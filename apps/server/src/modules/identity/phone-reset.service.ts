import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  errorMessages,
  hasSpecialCharacter,
  phoneResetLimits as limits,
  normalizeIndonesianPhone,
  type PhoneResetConfirmBody,
  type PhoneResetRequestResponse,
  type PhoneResetValidateBody,
  type PhoneResetValidateResponse,
  phoneResetMessages,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { badRequest, HttpError, notFound } from '../../platform/http/http-errors';
import type { MailService } from '../../platform/mail/mail-service';
import {
  countCodesSince,
  exchangeCodeForToken,
  findLatestCode,
  findOpenCode,
  insertCode,
  recordWrongAttempt,
  retireOpenCodes,
} from './password-reset.repository';
import { confirmPasswordReset } from './password-reset.service';
import { findActiveUserByPhoneUnscoped, phoneResetPurpose as purpose } from './phone-reset.repository';
import type { UserRow } from './user.repository';

const tooManyRequests = () => new HttpError(429, errorMessages.tooManyRequests);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Reset by phone (core-inbox §8): a 5-digit code by SMS through the outbox (kept locally
 * until an SMS provider exists), exchanged for a reset token, exchanged for a new password
 * that must also hold a special character. The code rows and the last step are the ones of
 * forgot password, under their own purpose, so the two flows never accept each other's tokens.
 */
export class PhoneResetService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    private readonly secret: string,
  ) {}

  /** Sends a new code unless the resend countdown is running or the hourly quota is spent. */
  async request(phoneInput: string): Promise<PhoneResetRequestResponse> {
    const { user, phone } = await this.activeUser(phoneInput);
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
      await this.mail.queue(tx, {
        clientId: user.clientId,
        channel: 'SMS',
        recipient: phone,
        ...resetSms(code),
      });
    });
    return { resendInSeconds: limits.resendSeconds, expiresInSeconds: limits.codeTtlSeconds };
  }

  /** Checks the code; a right one becomes a reset token, a wrong one counts towards the lock. */
  async validate(body: PhoneResetValidateBody): Promise<PhoneResetValidateResponse> {
    const { user } = await this.activeUser(body.phone);
    const resetToken = randomBytes(32).toString('base64url');
    // Decided inside, thrown outside: a wrong try must commit its count, not roll back.
    const outcome = await withTenant(this.db, user.clientId, async (tx) => {
      const code = await findOpenCode(tx, user.clientId, user.id, purpose);
      if (!code || code.expiresAt <= new Date()) return 'expired' as const;
      if (code.attempts >= limits.maxAttempts) return 'locked' as const;
      if (!this.matches(code.codeHash, this.codeHash(user.id, body.code.trim()))) {
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

  /** The usual rules of a reset, plus the special character this flow asks for. */
  async confirm(body: PhoneResetConfirmBody): Promise<void> {
    if (body.newPassword !== body.confirmPassword) throw badRequest(errorMessages.passwordMismatch);
    if (!hasSpecialCharacter(body.newPassword))
      throw badRequest(phoneResetMessages.passwordNeedsSpecialCharacter);
    await confirmPasswordReset(this.db, purpose, body);
  }

  /** The active user behind the number; the spec's 'not register' answer otherwise. */
  private async activeUser(phoneInput: string): Promise<{ user: UserRow; phone: string }> {
    const phone = normalizeIndonesianPhone(phoneInput);
    const user = phone ? await findActiveUserByPhoneUnscoped(this.db, phone) : undefined;
    if (!user) throw notFound(phoneResetMessages.phoneNotRegistered);
    return { user, phone };
  }

  private codeHash(userId: string, code: string): string {
    return createHmac('sha256', this.secret).update(`${purpose}:${userId}:${code}`).digest('hex');
  }

  private matches(storedHash: string, candidateHash: string): boolean {
    const stored = Buffer.from(storedHash, 'hex');
    const candidate = Buffer.from(candidateHash, 'hex');
    return stored.length === candidate.length && timingSafeEqual(stored, candidate);
  }
}

/** An SMS is short and has no subject line; the subject only labels it in the local mailbox. */
function resetSms(code: string): { subject: string; text: string } {
  const minutes = limits.codeTtlSeconds / 60;
  return {
    subject: 'Kode atur ulang kata sandi / Password reset code',
    text: `Kode atur ulang kata sandi Anda: ${code}, berlaku ${minutes} menit. Your password reset code: ${code}, valid for ${minutes} minutes.`,
  };
}
