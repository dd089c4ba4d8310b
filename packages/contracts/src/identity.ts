import { z } from 'zod';
import { csPositions } from './inbox';
import { permissionNames, roles } from './permissions';

/** Passwords: at least 8 characters with letters and digits; other characters allowed (core-inbox §5). */
export const passwordPolicy = z
  .string()
  .min(8)
  .max(128)
  .regex(/[A-Za-z]/)
  .regex(/[0-9]/);

export const loginBody = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
});
export type LoginBody = z.infer<typeof loginBody>;

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(512) });
export type RefreshBody = z.infer<typeof refreshBody>;

export const logoutBody = z.object({ refreshToken: z.string().min(1).max(512).optional() });

export const featureAccessPermissionsSchema = z.object({
  userPermissionIndex: z.string().regex(/^[01]*$/),
  clientPermissionIndex: z.string().regex(/^[01]*$/),
});

export const featurePermissionSchema = z.object({
  name: z.enum(permissionNames),
  actions: z.array(z.enum(['READ', 'CREATE', 'UPDATE', 'DELETE'])),
});

/**
 * Claims of the access token (core-inbox §3 Session): everything the ability needs,
 * plus the account object with sellerId and the sub object with clientTimezone.
 * The user id travels in `uid` because the spec gives `sub` an object shape.
 */
export const accessTokenClaims = z.object({
  uid: z.string().uuid(),
  sid: z.string().uuid(),
  role: z.enum(roles),
  clientId: z.string().uuid(),
  email: z.string(),
  features: z.array(z.string()),
  featuresAccessName: z.string().nullable(),
  featuresAccessPermissions: featureAccessPermissionsSchema.nullable(),
  featuresPermissions: z.array(featurePermissionSchema),
  accountCountry: z.string(),
  region: z.string().nullable(),
  account: z.object({ sellerId: z.string().nullable() }),
  sub: z.object({ clientTimezone: z.string() }),
  /** Customer-service position (core-inbox §6); decides which chats the user sees. */
  csPosition: z.enum(csPositions).nullable().default(null),
  /**
   * The person can enter more than one client. Counted when the token is issued (sign-in,
   * refresh, switch), so users/me need not look across tenants on every call.
   */
  enableMultiClient: z.boolean().default(false),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaims>;

export const tokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int(),
  refreshTokenExpiresAt: z.string(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const clientSummary = z.object({
  id: z.string().uuid(),
  name: z.string(),
  country: z.string(),
  timezone: z.string(),
  region: z.string().nullable(),
  sellerId: z.string().nullable(),
});

export const userSummary = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  agentStatus: z.enum(['ONLINE', 'OFFLINE']),
  csPosition: z.enum(csPositions).nullable(),
  createdAt: z.string(),
});
export type UserSummary = z.infer<typeof userSummary>;

export const meResponse = z.object({
  user: userSummary,
  client: clientSummary,
  features: z.array(z.string()),
  featuresAccessName: z.string().nullable(),
  featuresAccessPermissions: featureAccessPermissionsSchema.nullable(),
  featuresPermissions: z.array(featurePermissionSchema),
  /** The ability's rules, for tools that do not rebuild it from the token. */
  permissions: z.array(z.object({ action: z.string(), subject: z.string(), inverted: z.boolean() })),
  /** When the user approved the consent document; null until they do (core-inbox §4). */
  consentAgreedAt: z.string().nullable().default(null),
  /** When the consent dialog was last answered; it shows again 6 hours later. */
  consentTimestamp: z.string().nullable().default(null),
  /** The person can enter more than one client, so the app offers client switching. */
  enableMultiClient: z.boolean().optional().default(false),
});
export type MeResponse = z.infer<typeof meResponse>;

export const loginResponse = tokenPair.extend({
  user: userSummary,
  /** The person can enter more than one client, so the app offers client switching. */
  enableMultiClient: z.boolean().optional().default(false),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const messageResponse = z.object({ message: z.string() });

export const userListResponse = z.object({ content: z.array(userSummary), total: z.number().int() });

export const agentStatusBody = z.object({ status: z.enum(['ONLINE', 'OFFLINE']) });
export const agentStatusResponse = z.object({ status: z.enum(['ONLINE', 'OFFLINE']) });

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: z.string().min(1).max(256),
  confirmPassword: z.string().min(1).max(256),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** GET /api/plus/wallet/byClientId (core-inbox §7 Plus). */
export const walletResponse = z.object({
  clientId: z.string().uuid(),
  chatCredit: z.object({ balance: z.number(), balanceBonus: z.number() }),
});
export type WalletResponse = z.infer<typeof walletResponse>;
export const walletQuery = z.object({ clientId: z.string().uuid().optional() });

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']) }),
  queue: z.object({ ok: z.boolean() }),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const errorObject = z.object({ statusCode: z.number(), error: z.string(), message: z.string() });
