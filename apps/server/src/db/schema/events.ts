import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The outbox: a service writes its rows and an event here in one transaction. The id is
 * the realtime cursor; `relayedAt` marks events already handed to job subscribers.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    clientId: uuid('client_id').notNull(),
    topic: text('topic').notNull(),
    rooms: text('rooms').array().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    relayedAt: timestamp('relayed_at', { withTimezone: true }),
    /** A relay that claimed the event holds it until then; past it another may take over. */
    relayClaimedUntil: timestamp('relay_claimed_until', { withTimezone: true }),
  },
  (table) => [
    index('outbox_events_client_idx').on(table.clientId, table.id),
    index('outbox_events_unrelayed_idx').on(table.id).where(sql`relayed_at is null`),
  ],
);
