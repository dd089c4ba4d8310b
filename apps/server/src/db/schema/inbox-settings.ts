import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tenant, updatedAt } from './columns';
import { clients, users } from './identity';
import { channelAccounts } from './inbox';

// The inbox's settings and the things around its conversations: categories, preferences,
// uploaded files, the live-chat widget, the chat-service switches and agent groups.

/** Ticket categories a client defines. */
export const ticketCategories = pgTable(
  'ticket_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('ticket_categories_name_unique')
      .on(table.clientId, sql`lower(${table.name})`)
      .where(sql`deleted_at is null`),
  ],
);

/** Per-user inbox preferences: the ticket list's column set. */
export const inboxPreferences = pgTable('inbox_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  clientId: tenant(),
  ticketColumns: text('ticket_columns').array(),
  updatedAt: updatedAt(),
});

/** An uploaded file: an agent's attachment, a visitor's image, a widget logo. */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    /** `user:<id>` or `identity:<id>`: who may attach it. */
    ownerRef: text('owner_ref').notNull(),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    status: text('status', { enum: ['PENDING', 'READY'] })
      .notNull()
      .default('PENDING'),
    createdAt: createdAt(),
  },
  (table) => [index('media_files_client_idx').on(table.clientId, table.createdAt)],
);

/** Live-chat widget settings (commerce: live chat widget), one per LVC channel account. */
export const livechatWidgets = pgTable(
  'livechat_widgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    channelAccountId: uuid('channel_account_id')
      .notNull()
      .references(() => channelAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    domain: text('domain').notNull(),
    logoFileId: uuid('logo_file_id'),
    colour: text('colour').notNull(),
    onlineTitle: text('online_title').notNull(),
    onlineMessage: text('online_message').notNull(),
    offlineTitle: text('offline_title').notNull(),
    offlineMessage: text('offline_message').notNull(),
    prechatFields: jsonb('prechat_fields')
      .$type<Array<{ label: string; customizedData: string; required: boolean }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    consentText: text('consent_text').notNull(),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('livechat_widgets_domain_unique')
      .on(sql`lower(${table.domain})`)
      .where(sql`deleted_at is null`),
    uniqueIndex('livechat_widgets_account_unique').on(table.channelAccountId),
  ],
);

/** Chat-service configuration (core-inbox §3): every switch defaults to off. */
export const inboxConfigurations = pgTable('inbox_configurations', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  featureCs: integer('feature_cs').notNull().default(0),
  isAutoAssignFeature: integer('is_auto_assign_feature').notNull().default(0),
  isDisplayChatroomEmoji: integer('is_display_chatroom_emoji').notNull().default(0),
  isDisplayChatroomAttachment: integer('is_display_chatroom_attachment').notNull().default(0),
  isDisplayChatroomCsName: integer('is_display_chatroom_cs_name').notNull().default(0),
  updatedAt: updatedAt(),
});

/** A group of agents a chat can be transferred to (its management screens come with team operations). */
export const agentGroups = pgTable(
  'agent_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    isDefault: integer('is_default').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [index('agent_groups_client_idx').on(table.clientId)],
);

export const agentGroupMembers = pgTable(
  'agent_group_members',
  {
    clientId: tenant(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => agentGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index('agent_group_members_user_idx').on(table.userId),
  ],
);
