import { z } from 'zod';

/** Limits of the forgot-password flow (core-inbox §8, issue 14). */
export const passwordResetLimits = {
  codeLength: 6,
  /** How long an e-mailed code stays valid. */
  codeTtlSeconds: 600,
  /** The countdown before another code may be sent. */
  resendSeconds: 60,
  /** Wrong tries before the code is dead. */
  maxAttempts: 5,
  /** How long the last step may wait after the code was accepted. */
  resetTokenTtlSeconds: 600,
  /** Codes one e-mail may be sent within an hour. */
  maxCodesPerHour: 5,
} as const;

const email = z.string().trim().min(1).max(254);

/** POST /api/identity/users/resetPassword/request */
export const passwordResetRequestBody = z.object({ email });
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBody>;

/** The code went out: the screen counts down before it offers to send another. */
export const passwordResetRequestResponse = z.object({
  resendInSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
});
export type PasswordResetRequestResponse = z.infer<typeof passwordResetRequestResponse>;

/** POST /api/identity/users/resetPassword/validate (core-inbox §7: e-mail and code). */
export const passwordResetValidateBody = z.object({ email, code: z.string().trim().min(1).max(16) });
export type PasswordResetValidateBody = z.infer<typeof passwordResetValidateBody>;

/** The short-lived token that lets the last step set the new password. */
export const passwordResetValidateResponse = z.object({
  resetToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type PasswordResetValidateResponse = z.infer<typeof passwordResetValidateResponse>;

/** POST /api/identity/users/resetPassword/confirm */
export const passwordResetConfirmBody = z.object({
  resetToken: z.string().min(1).max(200),
  newPassword: z.string().min(1).max(256),
  confirmPassword: z.string().min(1).max(256),
});
export type PasswordResetConfirmBody = z.infer<typeof passwordResetConfirmBody>;

/** One message of the local outbox, as the owner's mailbox page shows it (plain text only). */
export const mailboxEntry = z.object({
  id: z.string().uuid(),
  channel: z.enum(['EMAIL', 'SMS', 'WHATSAPP']),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['PENDING', 'SENT', 'KEPT', 'FAILED']),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type MailboxEntry = z.infer<typeof mailboxEntry>;

/** GET /api/identity/mailbox: newest first. */
export const mailboxQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const mailboxListResponse = z.object({ content: z.array(mailboxEntry), total: z.number().int() });
export type MailboxListResponse = z.infer<typeof mailboxListResponse>;
