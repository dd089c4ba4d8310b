import type { FeaturePermission } from '@app/contracts';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** A client (tenant): one business with its users, channels and data. */
export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    country: text('country').notNull().default('ID'),
    timezone: text('timezone').notNull().default('Asia/Jakarta'),
    region: text('region'),
    sellerId: text('seller_id'),
    /** Client side of the feature-access bit strings (core-inbox §6). */
    permissionIndex: text('permission_index').notNull().default(''),
    features: jsonb('features').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** The owner's switch: every user must use 2-step verification. */
    requireMfa: boolean('require_mfa').notNull().default(false),
    /** Most users the plan allows. */
    userLimit: integer('user_limit').notNull().default(25),
    /** Sign-up's store step: up to three business fields, the store type and its mode. */
    businessFields: text('business_fields').array().notNull().default(sql`'{}'::text[]`),
    businessType: text('business_type'),
    businessMode: text('business_mode', { enum: ['RESTAURANT', 'ONLINE_SHOP'] }),
    /** The WhatsApp Business number given at sign-up (null when the step was skipped). */
    wabaPhone: text('waba_phone'),
    /** Plan: a free trial until `trialEndsAt`, then the chosen package. */
    subscriptionPackage: text('subscription_package').notNull().default('FREE_TRIAL'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    referralCode: text('referral_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('clients_waba_phone_unique').on(table.wabaPhone).where(sql`waba_phone is not null`),
  ],
);

/**
 * A person's place in one client, with its role. A person who works for several clients
 * has one row per client: the first holds the credentials (password, 2-step, lockout) and
 * the others point to it through `sharedLoginUserId`; sign-in looks only at holders.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Hashes of earlier passwords, newest first, so a recent one is refused. */
    passwordHistory: jsonb('password_history').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    role: text('role', { enum: ['OWN', 'ADC', 'USC', 'SAD'] }).notNull(),
    status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
      .notNull()
      .default('ACTIVE'),
    agentStatus: text('agent_status', { enum: ['ONLINE', 'OFFLINE'] })
      .notNull()
      .default('ONLINE'),
    featuresAccessName: text('features_access_name'),
    /** Customer-service position (core-inbox §6); null for users without inbox duties. */
    csPosition: text('cs_position', { enum: ['SUPERVISOR_1', 'SUPERVISOR_2', 'CS_1', 'CS_2'] }),
    /** User side of the feature-access bit strings; null when the user has no feature-access group. */
    permissionIndex: text('permission_index'),
    featuresPermissions: jsonb('features_permissions')
      .$type<FeaturePermission[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /** Wrong passwords or codes in a row; reaching the limit locks sign-in until `lockedUntil`. */
    failedSignInCount: integer('failed_sign_in_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The TOTP secret, sealed with the server key; 2-step is on once `mfaEnabledAt` is set. */
    mfaSecret: text('mfa_secret'),
    mfaEnabledAt: timestamp('mfa_enabled_at', { withTimezone: true }),
    /** The last TOTP time step accepted, so a code cannot be used twice in its window. */
    mfaLastUsedStep: bigint('mfa_last_used_step', { mode: 'number' }),
    phone: text('phone'),
    csTags: text('cs_tags').array().notNull().default(sql`'{}'::text[]`),
    consentAgreedAt: timestamp('consent_agreed_at', { withTimezone: true }),
    consentTimestamp: timestamp('consent_timestamp', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Set on a membership row: the row in another client that holds this person's credentials. */
    sharedLoginUserId: uuid('shared_login_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'cascade',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One live credential holder per e-mail; a deleted user's e-mail can be used again.
    uniqueIndex('users_login_email_unique')
      .on(sql`lower(${table.email})`)
      .where(sql`deleted_at is null and shared_login_user_id is null`),
    // One live row per e-mail in a client.
    uniqueIndex('users_client_email_unique')
      .on(table.clientId, sql`lower(${table.email})`)
      .where(sql`deleted_at is null`),
    index('users_shared_login_idx').on(table.sharedLoginUserId),
    index('users_client_idx').on(table.clientId, table.createdAt),
  ],
);

/** A signed-in session: the family of rotating refresh tokens from one sign-in. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    ip: text('ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** One refresh token of a session; stored hashed, used at most once. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('refresh_tokens_session_idx').on(table.sessionId)],
);

/** One-time recovery codes for 2-step verification, stored hashed, each usable once. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mfa_recovery_codes_user_idx').on(table.userId)],
);

/** The account-activity record of a signed-in session (core-inbox §7 Plus). */
export const accountActivities = pgTable(
  'account_activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id'),
    email: text('email').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_activities_user_idx').on(table.clientId, table.userId)],
);

/** One-time codes (password reset by e-mail or phone), hashed, short-lived, single-use. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** After the code is verified: the hash of the token that lets the last step finish. */
    resetTokenHash: text('reset_token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('one_time_codes_user_idx').on(table.userId, table.purpose, table.createdAt)],
);

/** Mail (and SMS/WhatsApp codes) waiting for, or kept instead of, a provider. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['EMAIL', 'SMS', 'WHATSAPP'] })
      .notNull()
      .default('EMAIL'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status', { enum: ['PENDING', 'SENT', 'KEPT', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [index('mail_outbox_client_idx').on(table.clientId, table.createdAt)],
);

/** A feature-access group (custom role) of a client: menu access by bit string and grants. */
export const featureAccessGroups = pgTable(
  'feature_access_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissionIndex: text('permission_index').notNull().default(''),
    featuresPermissions: jsonb('features_permissions')
      .$type<FeaturePermission[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('feature_access_groups_name_unique')
      .on(table.clientId, sql`lower(${table.name})`)
      .where(sql`deleted_at is null`),
  ],
);

/** The audit log: sign-ins, role and user changes, permission refusals, client logs. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id'),
    /** What happened, e.g. SIGN_IN, USER_CREATED, ROLE_CHANGED, PERMISSION_DENIED, CLIENT_LOG. */
    type: text('type').notNull(),
    /** Details as JSON (the spec's event: version, source BROWSER or APP, ...). */
    event: jsonb('event').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    result: text('result'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('audit_logs_client_created_idx').on(table.clientId, table.createdAt.desc())],
);

/** A sign-up in progress (before its client exists): the account step and its e-mail code. */
export const signupRequests = pgTable(
  'signup_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    referralCode: text('referral_code'),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** After the code is verified: the hash of the token that lets the later steps finish. */
    continueTokenHash: text('continue_token_hash'),
    ip: text('ip'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('signup_requests_email_idx').on(sql`lower(${table.email})`, table.createdAt)],
);

/** A browser's Web Push subscription for a user (new chats and messages while the app is closed). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session that registered it; sign-out of that session removes it. */
    sessionId: uuid('session_id'),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    /** Set when the push service answered 404/410: the subscription is gone. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(table.clientId, table.endpoint),
    index('push_subscriptions_user_idx').on(table.clientId, table.userId),
  ],
);

/** A page visit recorded by the tracker (only for the configured clients). */
export const pageVisits = pgTable(
  'page_visits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id'),
    pageName: text('page_name').notNull(),
    data1: text('data_1'),
    data2: text('data_2'),
    data3: text('data_3'),
    data4: text('data_4'),
    data5: text('data_5'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('page_visits_client_created_idx').on(table.clientId, table.createdAt.desc())],
);
