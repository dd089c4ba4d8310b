import type { FeaturePermission } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** A client (tenant): one business with its users, channels and data. */
export const clients = pgTable('clients', {
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A person who signs in; belongs to one client with one role. */
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`),
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
