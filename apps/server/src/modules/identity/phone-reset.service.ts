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
import { badRequest, notFound } from '../../platform/http/http-errors';
import type { MailService } from '../../platform/mail/mail-service';
import { confirmPasswordReset } from './password-reset.service';
import { findActiveUserByPhoneUnscoped, phoneResetPurpose as purpose } from './phone-reset.repository';
import { ResetCodes } from './reset-codes';
import type { UserRow } from './user.repository';

/**
 * Reset by phone (core-inbox §8): a 5-digit code by SMS through the outbox (kept locally
 * until an SMS provider exists), exchanged for a reset token, exchanged for a new password
 * that must also hold a special character. The code rows and the last step are the ones of
 * forgot password, under their own purpose, so the two flows never accept each other's tokens.
 */
export class PhoneResetService {
  private readonly codes: ResetCodes;

  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    secret: string,
  ) {
    this.codes = new ResetCodes(db, secret, purpose, limits);
  }

  /** Sends a new code by SMS unless the resend countdown is running or the hourly quota is spent. */
  async request(phoneInput: string): Promise<PhoneResetRequestResponse> {
    const { user, phone } = await this.activeUser(phoneInput);
    return this.codes.issue(user, (tx, code) =>
      this.mail.queue(tx, { clientId: user.clientId, channel: 'SMS', recipient: phone, ...resetSms(code) }),
    );
  }

  /** Checks the code; a right one becomes a reset token, a wrong one counts towards the lock. */
  async validate(body: PhoneResetValidateBody): Promise<PhoneResetValidateResponse> {
    const { user } = await this.activeUser(body.phone);
    return this.codes.exchange(user, body.code);
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
}

/** An SMS is short and has no subject line; the subject only labels it in the local mailbox. */
function resetSms(code: string): { subject: string; text: string } {
  const minutes = limits.codeTtlSeconds / 60;
  return {
    subject: 'Kode atur ulang kata sandi / Password reset code',
    text: `Kode atur ulang kata sandi Anda: ${code}, berlaku ${minutes} menit. Your password reset code: ${code}, valid for ${minutes} minutes.`,
  };
}
