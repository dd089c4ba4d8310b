import type { ChannelCode } from '@app/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tenant, updatedAt } from './columns';
import { users } from './identity';

/** A PostgreSQL tsvector, read and written as its text form. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** One connected channel of a client: a WhatsApp number, an Instagram account, a live-chat widget. */
export const channelAccounts = pgTable(
  'channel_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    channel: text('channel').$type<ChannelCode>().notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['CONNECTED', 'NOT_CONNECTED', 'DISCONNECTED'] })
      .notNull()
      .default('NOT_CONNECTED'),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    /** Channel-specific settings that are not secret. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /**
     * The account's own id on its channel (a Telegram bot's numeric id): one business only
     * may connect it, so it is unique across clients among accounts not deleted.
     */
    externalId: text('external_id'),
    /** The account's credentials (a bot token, a webhook secret), sealed by `SecretBox`. */
    sealedSecret: text('sealed_secret'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    index('channel_accounts_client_idx').on(table.clientId, table.channel),
    uniqueIndex('channel_accounts_external_idx')
      .on(table.channel, table.externalId)
      .where(sql`${table.deletedAt} is null and ${table.externalId} is not null`),
  ],
);

/**
 * What a channel's webhook received and acknowledged, kept until it is a message: the webhook
 * answers once its entry is committed, and the entry is deleted once the message is stored.
 * An entry still here after its `retry_at` (its process stopped, or storing it failed) is
 * taken again by any process (`InboundJournal`).
 */
export const inboundJournal = pgTable(
  'inbound_journal',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: tenant(),
    /** No foreign key: accounts are deleted softly, and an entry of one gone is let go. */
    channelAccountId: uuid('channel_account_id').notNull(),
    /** Whose adapter stores the entry. */
    channel: text('channel').$type<ChannelCode>().notNull(),
    /** What the provider sent, as its adapter parsed it. */
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    /** When another process may take the entry: its first owner's lease, then the backoff. */
    retryAt: timestamp('retry_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
  },
  (table) => [index('inbound_journal_retry_idx').on(table.retryAt)],
);

/** A customer: one person, whatever channels they write from. */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    avatarUrl: text('avatar_url'),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('contacts_client_idx').on(table.clientId, table.createdAt),
    index('contacts_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
  ],
);

/** How a contact is known on one channel account (a phone number, a PSID, a visitor id). */
export const contactIdentities = pgTable(
  'contact_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    channelAccountId: uuid('channel_account_id')
      .notNull()
      .references(() => channelAccounts.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('contact_identities_external_unique').on(table.channelAccountId, table.externalId),
    index('contact_identities_contact_idx').on(table.contactId),
  ],
);

/** The thread between one contact identity and one channel account. */
export const chatRooms = pgTable(
  'chat_rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: tenant(),
    channelAccountId: uuid('channel_account_id')
      .notNull()
      .references(() => channelAccounts.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<ChannelCode>().notNull(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    contactIdentityId: uuid('contact_identity_id')
      .notNull()
      .references(() => contactIdentities.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    customerPhoneNumber: text('customer_phone_number'),
    currentTicketId: bigint('current_ticket_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('chat_rooms_identity_unique').on(table.contactIdentityId),
    // For the cascades: without them, deleting one contact or channel account reads every room.
    index('chat_rooms_contact_idx').on(table.contactId),
    index('chat_rooms_channel_account_idx').on(table.channelAccountId),
  ],
);

/**
 * One conversation in a room, from the customer's first message until it is closed or
 * resolved. Customer fields are copied here so the list and search never join contacts.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: tenant(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    channelAccountId: uuid('channel_account_id').notNull(),
    channel: text('channel').$type<ChannelCode>().notNull(),
    status: text('status', { enum: ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'] })
      .notNull()
      .default('UNASSIGNED'),
    priority: smallint('priority').notNull().default(3),
    categoryId: uuid('category_id'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    remarks: text('remarks'),
    subject: text('subject'),
    groupId: uuid('group_id'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    submitterId: uuid('submitter_id'),
    createdBy: uuid('created_by'),
    closedBy: uuid('closed_by'),
    customerName: text('customer_name').notNull(),
    customerPhone: text('customer_phone'),
    customerEmail: text('customer_email'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessagePreview: text('last_message_preview').notNull().default(''),
    lastCustomerMessageAt: timestamp('last_customer_message_at', { withTimezone: true }),
    /** Set on channels with an expiry: 24 hours after the last customer message. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Customer messages not yet read by an agent. */
    unreadCount: integer('unread_count').notNull().default(0),
    /**
     * Below every id of this ticket's messages: the messages' id sequence as it stood when the
     * ticket was made (migration 0042). A ticket takes messages only while it is its room's open
     * one, so its messages lie in its room between its own floor and the next ticket's, and
     * are read over `messages_room_idx` (`ticketMessages`, ticket-messages.ts).
     */
    messageFloor: bigint('message_floor', { mode: 'number' }).notNull().default(sql`messages_id_floor()`),
    createdAt: createdAt(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
    /**
     * The ticket as the list pages send it (`TicketSummary` JSON, `expired` written false),
     * kept by PostgreSQL on every insert and update (migration 0027): a list page then joins
     * stored texts instead of writing 50 rows of JSON, which was over half of its statement's
     * time. Read through `ticketSummaryJson` (json-views.ts), which sets `expired`.
     */
    summaryView: text('summary_view').generatedAlwaysAs(
      sql`ticket_summary_text(id, room_id, channel_account_id, channel, contact_id, customer_name, customer_phone, customer_email, status, expires_at, priority, tags, category_id, remarks, subject, group_id, assignee_id, submitter_id, closed_by, created_at, closed_at, last_message_at, last_message_preview, unread_count)`,
    ),
  },
  (table) => [
    index('tickets_client_created_idx').on(table.clientId, table.createdAt.desc(), table.id.desc()),
    // Neither `last_message_at` nor `expires_at` is in an index of tickets (migration 0034): a
    // customer's message rewrites its ticket in place, and the list by activity is read from
    // `ticket_activity`.
    index('tickets_client_status_created_idx').on(
      table.clientId,
      table.status,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    index('tickets_client_closed_idx').on(table.clientId, table.closedAt.desc(), table.id.desc()),
    // The table filtered by agent (0037). An assignee changes only when a chat is handed over,
    // so a customer's message still rewrites its ticket in place.
    index('tickets_client_assignee_created_idx').on(
      table.clientId,
      table.assigneeId,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    // Plain ascending keys: a backward scan gives `desc` (nulls first), the order the queries ask.
    index('tickets_room_idx').on(table.roomId, table.id),
    index('tickets_contact_idx').on(table.contactId, table.createdAt, table.id),
    index('tickets_tags_idx').using('gin', table.tags),
    // A search finds names in ticket_customer_names' trigram index, then their tickets here (0045).
    index('tickets_client_customer_name_idx').on(table.clientId, sql`lower(${table.customerName})`),
    index('tickets_customer_phone_trgm_idx').using('gin', sql`${table.customerPhone} gin_trgm_ops`),
    /** At most one open ticket per room: a second concurrent first message cannot open another. */
    uniqueIndex('tickets_one_open_per_room')
      .on(table.roomId)
      .where(sql`status in ('UNASSIGNED', 'ASSIGNED')`),
  ],
);

/** A message in a room and ticket: public or internal, inbound or outbound. */
export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: tenant(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    channelAccountId: uuid('channel_account_id').notNull(),
    kind: text('kind', { enum: ['PublicMessage', 'InternalMessage'] }).notNull(),
    direction: text('direction', { enum: ['INBOUND', 'OUTBOUND'] }).notNull(),
    senderType: text('sender_type', { enum: ['CUSTOMER', 'AGENT', 'SYSTEM'] }).notNull(),
    senderId: text('sender_id'),
    senderName: text('sender_name').notNull(),
    /** Who made the client message id: `user:<id>` or `identity:<id>`. */
    senderRef: text('sender_ref').notNull(),
    text: text('text').notNull().default(''),
    attachments: jsonb('attachments')
      .$type<Array<{ id: string; name: string; mime: string; size: number; url?: string }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    quotedMessageId: bigint('quoted_message_id', { mode: 'number' }),
    status: text('status', { enum: ['PENDING', 'SENT', 'DELIVERED', 'READ', 'FAILED'] }).notNull(),
    failureReason: text('failure_reason'),
    providerMessageId: text('provider_message_id'),
    clientMessageId: text('client_message_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Read both ways (newest page: backward; catching up: forward), so plain ascending. A
    // ticket's messages are read over it too, between the ticket's floor and the next one's
    // (migration 0042): an index by ticket took a page written whole per conversation after
    // each checkpoint.
    index('messages_room_idx').on(table.roomId, table.id),
    uniqueIndex('messages_provider_unique')
      .on(table.channelAccountId, table.providerMessageId)
      .where(sql`provider_message_id is not null`),
    uniqueIndex('messages_client_message_unique')
      .on(table.clientId, table.senderRef, table.clientMessageId)
      .where(sql`client_message_id is not null`),
  ],
);

/**
 * The words of a ticket's messages (lexemes only, no positions) in parts: each part holds
 * the words of a run of consecutive messages, up to about 256 words (migrations 0013 and
 * 0018), added a moment after the messages are stored (`ticketSearchBacklog`, migration 0030).
 * Keyword search tests a ticket's parts instead of reading its messages, and a rare word comes
 * from the GIN index. Messages add their words to the ticket's last part, so their cost does
 * not grow with the conversation; that part takes words until it holds 64, then folds into the
 * part before it when both fit 256 (migration 0036), so a message rewrites a small row.
 */
export const ticketSearch = pgTable(
  'ticket_search',
  {
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** 0, 1, 2…: a new part begins when the last one is full (a folded part leaves a gap). */
    part: integer('part').notNull().default(0),
    clientId: tenant(),
    /** The ids of the first and last message whose words the part holds (an edit rebuilds it). */
    firstMessageId: bigint('first_message_id', { mode: 'number' }).notNull().default(0),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull().default(0),
    words: tsvector('words').notNull().default(sql`''::tsvector`),
    /**
     * The ticket's creation day in UTC as yyyymmdd, set when the part is made (migration 0024):
     * the dated index tags each word with it, so a search reads the matches one day at a time.
     */
    createdDay: integer('created_day'),
    /**
     * When a drain or a fold last gave the part new words, while it is open; null once sealed
     * (migration 0038). Only sealed parts are in the word indexes: a part being written goes
     * into them once, when it has been quiet a while, instead of with every message. A search
     * reads the client's open parts beside the indexes.
     */
    writtenAt: timestamp('written_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.ticketId, table.part] }),
    index('ticket_search_words_idx').using('gin', table.words).where(sql`written_at is null`),
    index('ticket_search_dated_words_idx')
      .using('gin', sql`ticket_search_dated(words, created_day)`)
      .where(sql`written_at is null`),
    index('ticket_search_open_idx').on(table.clientId, table.createdDay).where(sql`written_at is not null`),
    // The keeper's: open parts, least lately written first.
    index('ticket_search_open_written_idx').on(table.writtenAt).where(sql`written_at is not null`),
  ],
);

/**
 * Messages whose words wait to enter their ticket's search parts (migration 0030). Storing a
 * message only notes it here; a drainer in the server (ticket-search-words.keeper.ts) adds
 * the words of a ticket's waiting messages to its last part together, a moment later, and a
 * keyword search first drains its own client's rows, so a search still finds every message
 * stored before it. No foreign key to the message or the ticket: the drainer passes over a
 * row whose message has gone.
 */
export const ticketSearchBacklog = pgTable(
  'ticket_search_backlog',
  {
    clientId: tenant(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.clientId, table.messageId] })],
);

/**
 * Tickets whose last search part began after another (migration 0036): a ticket's last part,
 * its tail, takes new words until it holds 64, and a full one folds into the part before it
 * when the next begins. One that a conversation left waiting is folded once it has been quiet
 * a while (`ticket_search_fold_quiet`), so a quiet ticket keeps as few parts as before. No
 * foreign key: a fold passes over a ticket that has gone.
 */
export const ticketSearchTails = pgTable(
  'ticket_search_tails',
  {
    clientId: tenant(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    /** The tail's part when it began. */
    part: integer('part').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.clientId, table.ticketId] }),
    index('ticket_search_tails_opened_idx').on(table.openedAt),
  ],
);

/**
 * Open-ticket counters per scope (`all`, `unassigned`, `user:<id>`), kept by a trigger. A
 * scope's count is the sum of its shards: each database connection adds to a shard of its own
 * (migration 0040), so that two transactions opening, assigning or closing tickets of one
 * client do not queue on one row until each other's commit.
 */
export const ticketCounters = pgTable(
  'ticket_counters',
  {
    clientId: tenant(),
    scope: text('scope').notNull(),
    shard: smallint('shard').notNull().default(0),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.clientId, table.scope, table.shard] })],
);
