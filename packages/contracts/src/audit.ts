import { z } from 'zod';

/** Longest range one audit-log read or download may span, so a query stays cheap. */
export const auditLogMaxRangeDays = 30;
/** Largest event text a client log post may carry. */
export const auditLogEventMaxBytes = 8 * 1024;
/** Rows per audit-log page. */
export const auditLogPageSize = 50;

/** What the audit log answers when input is wrong (no spec text; kept close to its style). */
export const auditErrorMessages = {
  rangeTooLong: `Audit log date range is at most ${auditLogMaxRangeDays} days`,
  rangeReversed: 'Audit log start date must be before the end date',
  eventNotJson: 'event must be JSON text',
  eventTooLarge: `event must be at most ${auditLogEventMaxBytes} bytes`,
  badCursor: 'Invalid cursor',
} as const;

/** Kinds of rows the server writes itself; a client log post brings its own type. */
export const auditTypes = {
  signIn: 'SIGN_IN',
  passwordChanged: 'PASSWORD_CHANGED',
  userCreated: 'USER_CREATED',
  userChanged: 'USER_CHANGED',
  userDeleted: 'USER_DELETED',
  roleCreated: 'ROLE_CREATED',
  roleChanged: 'ROLE_CHANGED',
  roleDeleted: 'ROLE_DELETED',
  permissionDenied: 'PERMISSION_DENIED',
  clientSwitched: 'CLIENT_SWITCHED',
} as const;

/**
 * Outbox topics the audit log listens to, besides sign-in and password change: the services
 * that change users and roles append them in their own transactions.
 */
export const auditEventTopics = {
  userCreated: 'identity.user_created',
  userChanged: 'identity.user_changed',
  userDeleted: 'identity.user_deleted',
  roleCreated: 'identity.role_created',
  roleChanged: 'identity.role_changed',
  roleDeleted: 'identity.role_deleted',
  /** A person moved their session to another client they belong to (payload names the user). */
  clientSwitched: 'identity.client_switched',
} as const;

/** Payload of the user and role topics: who did it, to what. */
export const auditSubjectPayload = z.object({
  actorUserId: z.string().uuid(),
  subjectId: z.string().uuid(),
  name: z.string().optional(),
});
export type AuditSubjectPayload = z.infer<typeof auditSubjectPayload>;

/** The client's own log post (core-inbox §7): event is JSON text with version and source. */
export const postAuditLogBody = z.object({
  type: z.string().trim().min(1).max(64),
  event: z.string().min(2),
  result: z.string().max(500).optional().default(''),
});
export type PostAuditLogBody = z.infer<typeof postAuditLogBody>;

/** The parsed event of a client log post. */
export const clientLogEvent = z
  .object({ version: z.string().min(1).max(40), source: z.enum(['BROWSER', 'APP']) })
  .passthrough();

/** One row of the audit log. */
export const auditLogEntry = z.object({
  id: z.string().uuid(),
  userId: z.string().uuid().nullable(),
  userName: z.string().nullable(),
  userEmail: z.string().nullable(),
  type: z.string(),
  event: z.record(z.string(), z.unknown()),
  result: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntry>;

/** Range and filters of a read; the range defaults to the last 7 days. */
export const auditLogQuery = z.object({
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  type: z.string().trim().max(64).optional(),
  userId: z.string().uuid().optional(),
  cursor: z.string().max(200).optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

/** One page, newest first; nextCursor is null on the last page. */
export const auditLogPage = z.object({
  content: z.array(auditLogEntry),
  nextCursor: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;

/** The kinds of rows a client's log holds, for the screen's type filter. */
export const auditTypeListResponse = z.object({ content: z.array(z.string()) });
