import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  errorMessages,
  eventTopics,
  passwordResetLimits as limits,
  type PasswordResetConfirmBody,
  type PasswordResetRequestResponse,
  type PasswordResetValidateBody,
  type PasswordResetValidateResponse,
  passwordPolicy,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import { badRequest, HttpError, notFound } from '../../platform/http/http-errors';
import type { MailService } from '../../platform/mail/mail-service';
import { hashPassword, verifyPassword } from './password-hasher';
import {
  consumeResetToken,
  countCodesSince,
  exchangeCodeForToken,
  findByResetTokenUnscoped,
  findLatestCode,
  findOpenCode,
  insertCode,
  passwordResetPurpose as purpose,
  recordWrongAttempt,
  retireOpenCodes,
} from './password-reset.repository';
import { revokeUserSessions } from './session.repository';
import { findUser, findUserForSignIn, type UserRow, updateUser } from './user.repository';

/** How many earlier passwords a new one may not repeat (the same depth as change password). */
const passwordHistoryDepth = 5;

const tooManyRequests = () => new HttpError(429, errorMessages.tooManyRequests);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const isActive = (user: UserRow) => user.status === 'ACTIVE' && user.deletedAt === null;

/**
 * Forgot password (core-inbox §8): a 6-digit code by mail, exchanged for a short-lived
 * reset token, exchanged for a new password. Codes are hashed with a server key (six
 * digits alone would be trivial to reverse), single-use, and dead after five wrong tries.
 */
export class PasswordResetService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    private readonly secret: string,
  ) {}

  /** Sends a new code unless the resend countdown is running or the hourly quota is spent. */
  async request(email: string): Promise<PasswordResetRequestResponse> {
    const user = await this.activeUser(email);
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
      await this.mail.queue(tx, { clientId: user.clientId, recipient: user.email, ...resetMail(user, code) });
    });
    return { resendInSeconds: limits.resendSeconds, expiresInSeconds: limits.codeTtlSeconds };
  }

  /** Checks the code; a right one becomes a reset token, a wrong one counts towards the lock. */
  async validate(body: PasswordResetValidateBody): Promise<PasswordResetValidateResponse> {
    const user = await this.activeUser(body.email);
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

  /** Sets the new password under the identity policy; every session of the user ends. */
  async confirm(body: PasswordResetConfirmBody): Promise<void> {
    await confirmPasswordReset(this.db, purpose, body);
  }

  /** The user behind the e-mail, in any client, if they may still sign in. */
  private async activeUser(email: string): Promise<UserRow> {
    const user = await findUserForSignIn(this.db, email);
    if (!user) throw notFound(errorMessages.emailNotRegistered);
    if (!isActive(user)) throw new HttpError(403, errorMessages.userInactive);
    return user;
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

/**
 * The last step of every reset flow (e-mail here, phone in phone-reset.service): the token
 * of the purpose becomes the new password under the policy and the history of five, and
 * every session of the user ends. Shared so both flows keep one set of password rules.
 */
export async function confirmPasswordReset(
  db: Database,
  codePurpose: string,
  body: PasswordResetConfirmBody,
): Promise<void> {
  if (body.newPassword !== body.confirmPassword) throw badRequest(errorMessages.passwordMismatch);
  if (!passwordPolicy.safeParse(body.newPassword).success) throw badRequest(errorMessages.passwordFormat);
  const timedOut = () => badRequest(errorMessages.resetSessionTimedOut);
  const record = await findByResetTokenUnscoped(db, sha256(body.resetToken));
  if (!record || record.purpose !== codePurpose || record.usedAt || record.expiresAt <= new Date())
    throw timedOut();
  const { clientId, userId } = record;
  const user = await withTenant(db, clientId, (tx) => findUser(tx, clientId, userId));
  if (!user || !isActive(user)) throw new HttpError(403, errorMessages.userInactive);
  for (const earlier of [user.passwordHash, ...user.passwordHistory]) {
    if (await verifyPassword(earlier, body.newPassword)) throw badRequest(errorMessages.passwordAlreadyUsed);
  }
  const passwordHash = await hashPassword(body.newPassword);
  const done = await withTenant(db, clientId, async (tx) => {
    if (!(await consumeResetToken(tx, clientId, record.id))) return false;
    await updateUser(tx, clientId, userId, {
      passwordHash,
      passwordHistory: [user.passwordHash, ...user.passwordHistory].slice(0, passwordHistoryDepth),
    });
    for (const sessionId of await revokeUserSessions(tx, clientId, userId, 'password reset')) {
      await appendEvent(tx, {
        clientId,
        topic: eventTopics.sessionRevoked,
        rooms: [rooms.user(userId)],
        payload: { sessionId, reason: 'password reset' },
      });
    }
    return true;
  });
  if (!done) throw timedOut();
}

/** The code's message, Indonesian first then English (the user's language is not known yet). */
function resetMail(user: UserRow, code: string): { subject: string; text: string } {
  const minutes = limits.codeTtlSeconds / 60;
  return {
    subject: `Kode atur ulang kata sandi / Password reset code: ${code}`,
    text: [
      `Halo ${user.name},`,
      '',
      `Kode untuk mengatur ulang kata sandi Anda: ${code}`,
      `Kode berlaku ${minutes} menit dan hanya dapat digunakan sekali. Abaikan email ini jika Anda tidak memintanya.`,
      '',
      `Hello ${user.name},`,
      '',
      `Your password reset code: ${code}`,
      `The code is valid for ${minutes} minutes and can be used once. Ignore this e-mail if you did not ask for it.`,
    ].join('\n'),
  };
}
