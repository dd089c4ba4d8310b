import { z } from 'zod';

/** Limits of reset by phone (core-inbox §8 'Reset by phone', issue 14): a 5-digit SMS code. */
export const phoneResetLimits = {
  codeLength: 5,
  /** How long an SMS code stays valid. */
  codeTtlSeconds: 600,
  /** The countdown before another code may be sent. */
  resendSeconds: 60,
  /** Wrong tries before the code is dead. */
  maxAttempts: 5,
  /** How long the change-password step may wait after the code was accepted. */
  resetTokenTtlSeconds: 600,
  /** Codes one phone number may be sent within an hour. */
  maxCodesPerHour: 5,
} as const;

/** Texts only this flow answers with; the shared ones live in errorMessages. */
export const phoneResetMessages = {
  phoneNotRegistered: 'Phone number is not register',
  passwordNeedsSpecialCharacter: 'Password must contain a special character',
} as const;

/**
 * An Indonesian number in the form users.phone keeps it: digits only, 62 first
 * (08xx → 628xx, +62 → 62). Answers '' for something that is no phone number at all.
 */
export function normalizeIndonesianPhone(input: string): string {
  const digits = input.replace(/[\s\-().]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return '';
  if (digits.startsWith('0')) return `62${digits.slice(1)}`;
  if (digits.startsWith('8')) return `62${digits}`;
  return digits;
}

/** The special character the phone flow demands on top of the usual password policy. */
export const hasSpecialCharacter = (password: string): boolean => /[^A-Za-z0-9]/.test(password);

const phone = z.string().trim().min(6).max(20);

/** POST /api/identity/users/resetPassword/phone/request */
export const phoneResetRequestBody = z.object({ phone });
export type PhoneResetRequestBody = z.infer<typeof phoneResetRequestBody>;

/** The code went out by SMS: the screen counts down before it offers to send another. */
export const phoneResetRequestResponse = z.object({
  resendInSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
});
export type PhoneResetRequestResponse = z.infer<typeof phoneResetRequestResponse>;

/** POST /api/identity/users/resetPassword/phone/validate */
export const phoneResetValidateBody = z.object({ phone, code: z.string().trim().min(1).max(16) });
export type PhoneResetValidateBody = z.infer<typeof phoneResetValidateBody>;

/** The short-lived token that lets the change-password step set the new password. */
export const phoneResetValidateResponse = z.object({
  resetToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type PhoneResetValidateResponse = z.infer<typeof phoneResetValidateResponse>;

/** POST /api/identity/users/resetPassword/phone/confirm */
export const phoneResetConfirmBody = z.object({
  resetToken: z.string().min(1).max(200),
  newPassword: z.string().min(1).max(256),
  confirmPassword: z.string().min(1).max(256),
});
export type PhoneResetConfirmBody = z.infer<typeof phoneResetConfirmBody>;
