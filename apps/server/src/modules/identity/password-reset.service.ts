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
import { endPersonSessions } from './client-membership.service';
import { hashPassword, verifyPassword } from './password-hasher';
import {
  consumeResetToken,
  findByResetTokenUnscoped,
  passwordResetPurpose as purpose,
} from './password-reset.repository';
import { ResetCodes, sha256 } from './reset-codes';
import { revokeUserSessions } from './session.repository';
import { findUser, findUserForSignIn, type UserRow, updateUser } from './user.repository';

/** How many earlier passwords a new one may not repeat (the same depth as change password). */
const passwordHistoryDepth = 5;

const isActive = (user: UserRow) => user.status === 'ACTIVE' && user.deletedAt === null;

/**
 * Forgot password (core-inbox §8): a 6-digit code by mail, exchanged for a short-lived
 * reset token, exchanged for a new password. Codes are hashed with a server key (six
 * digits alone would be trivial to reverse), single-use, and dead after five wrong tries.
 */
export class PasswordResetService {
  private readonly codes: ResetCodes;

  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    secret: string,
  ) {
    this.codes = new ResetCodes(db, secret, purpose, limits);
  }

  /** Sends a new code by mail unless the resend countdown is running or the hourly quota is spent. */
  async request(email: string): Promise<PasswordResetRequestResponse> {
    const user = await this.activeUser(email);
    return this.codes.issue(user, (tx, code) =>
      this.mail.queue(tx, { clientId: user.clientId, recipient: user.email, ...resetMail(user, code) }),
    );
  }

  /** Checks the code; a right one becomes a reset token, a wrong one counts towards the lock. */
  async validate(body: PasswordResetValidateBody): Promise<PasswordResetValidateResponse> {
    return this.codes.exchange(await this.activeUser(body.email), body.code);
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
  // The password is the person's: their sessions in other clients end too.
  await endPersonSessions(db, userId, 'password reset');
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
