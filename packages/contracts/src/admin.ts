import { z } from 'zod';
import { csPositions } from './inbox';
import { type PermissionName, permissionBitRules } from './permissions';

/**
 * Admin users, feature-access groups and user consent (core-inbox §4-§6, commerce §5, §6, §8).
 * The server answers these texts in `message`; the web app shows the locale's version.
 */
export const adminErrorMessages = {
  nameRequired: 'Name is Required',
  nameTooLong: 'Max 15 Characters',
  featureAccessNameTaken: 'Role name already exists',
  featureAccessInUse: 'Role is used by a user and cannot be removed',
  featureAccessUnknown: 'Role not found',
  emailInvalid: 'Invalid email',
  emailTaken: 'Email already registered',
  passwordNotMatch: 'Password is not match',
  csPositionRequired: 'CS position is required for a role with inbox access',
  csPositionNotAllowed: 'CS position must be empty for a role without inbox access',
  onlyOwnerMakesAdmin: 'Only the owner can make an admin',
  ownerProtected: 'The owner cannot be deleted or changed',
  userLimitReached: 'Cannot add a new user because it has reached the maximum limit',
  deleteUserHasTickets: 'Failed to delete user. Please resolve the chat to delete user.',
  agentGroupUnknown: 'Group not found',
} as const;

/** The menus a feature-access group can open: the bit-indexed rules plus the ticket table. */
export const featureAccessMenus: ReadonlyArray<PermissionName> = [
  ...permissionBitRules.map((rule) => rule.subject),
  'VIEW_FEATURE',
];

/** A group's name: required, at most 15 characters (core-inbox §5). */
export const featureAccessName = z
  .string()
  .trim()
  .min(1, adminErrorMessages.nameRequired)
  .max(15, adminErrorMessages.nameTooLong);

/** Body of POST and PUT feature-access; `allMenus` opens every menu whatever `menus` holds. */
export const featureAccessGroupBody = z.object({
  name: z.string().max(200),
  allMenus: z.boolean().default(false),
  menus: z.array(z.enum(featureAccessMenus as [PermissionName, ...PermissionName[]])).default([]),
});
export type FeatureAccessGroupBody = z.infer<typeof featureAccessGroupBody>;

export const featureAccessGroupView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  allMenus: z.boolean(),
  menus: z.array(z.string()),
  permissionIndex: z.string(),
  /** Active users carrying the group now. */
  userCount: z.number().int(),
  createdAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type FeatureAccessGroupView = z.infer<typeof featureAccessGroupView>;

export const featureAccessListQuery = z.object({
  isDeleted: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export const featureAccessListResponse = z.object({ content: z.array(featureAccessGroupView) });
export const featureAccessDetailQuery = z.object({ name: z.string().min(1).max(200) });

/** Roles an admin screen may give; OWN comes only with the client, SAD is not assignable. */
export const assignableRoles = ['ADC', 'USC'] as const;

/** Fields the admin-user form sends; the content rules are in `adminUserRules`. */
export const adminUserBody = z.object({
  name: z.string().max(500),
  email: z.string().max(500),
  password: z.string().max(256).optional(),
  confirmPassword: z.string().max(256).optional(),
  role: z.enum(assignableRoles),
  csPosition: z.enum(csPositions).nullable().default(null),
  featuresAccessName: z.string().max(200).nullable().default(null),
  agentGroupIds: z.array(z.string().uuid()).max(100).default([]),
  csTags: z.array(z.string().trim().min(1).max(50)).max(50).default([]),
  /** Optional; stored as 62… so the reset-by-phone flow finds the user. */
  phone: z
    .string()
    .trim()
    .regex(/^(\+?62|0)8[0-9]{7,12}$/, 'Invalid phone number')
    .nullable()
    .optional(),
  status: z.enum(['ACTIVE', 'INACTIVE']).default('ACTIVE'),
});
export type AdminUserBody = z.infer<typeof adminUserBody>;

/** What the form checks on the client and the server again, with the spec's texts. */
export const adminUserRules = z
  .object({
    name: z.string().trim().min(1, adminErrorMessages.nameRequired).max(100),
    email: z.string().trim().min(1).email(adminErrorMessages.emailInvalid),
    password: z.string().optional(),
    confirmPassword: z.string().optional(),
  })
  .refine((body) => (body.password ?? '') === (body.confirmPassword ?? ''), {
    message: adminErrorMessages.passwordNotMatch,
    path: ['confirmPassword'],
  });

export const adminUserView = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  agentStatus: z.enum(['ONLINE', 'OFFLINE']),
  csPosition: z.enum(csPositions).nullable(),
  featuresAccessName: z.string().nullable(),
  agentGroupIds: z.array(z.string().uuid()),
  csTags: z.array(z.string()),
  phone: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUserView = z.infer<typeof adminUserView>;

export const adminUserListQuery = z.object({ search: z.string().max(200).optional() });
export const adminUserListResponse = z.object({
  content: z.array(adminUserView),
  total: z.number().int(),
  userLimit: z.number().int(),
});

/** PUT users/consent: approve records the agreement; dismiss only the time (core-inbox §4). */
export const consentBody = z.object({
  consentTimestamp: z.string().datetime({ offset: true }),
  agreed: z.boolean(),
});
export type ConsentBody = z.infer<typeof consentBody>;
export const consentResponse = z.object({
  consentAgreedAt: z.string().nullable(),
  consentTimestamp: z.string().nullable(),
});

/** The consent dialog reminds again after this long (core-inbox §9). */
export const consentReminderMs = 21_600_000;

/**
 * True when the consent dialog should show (core-inbox §4): the user has not agreed, and
 * either never answered or answered more than 6 hours ago. The demo staff are seeded as
 * having agreed, so the dialog does not cover the demo.
 */
export function consentDue(
  user: { consentAgreedAt: string | null; consentTimestamp: string | null; createdAt: string },
  now = Date.now(),
): boolean {
  if (user.consentAgreedAt) return false;
  if (!user.consentTimestamp) return true;
  return now - new Date(user.consentTimestamp).getTime() > consentReminderMs;
}
