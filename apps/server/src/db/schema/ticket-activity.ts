import type { ChannelCode } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenant } from './columns';
import { tickets } from './inbox';

/**
 * The list's sort keys by activity, one narrow row per ticket, kept by triggers on tickets
 * (migration 0034). A customer's message moves its ticket's `last_message_at` and often its
 * `expires_at`: with those in indexes of tickets, every message gave the ticket a new row
 * version in each of its 12 indexes. Here they are in this row's three, and the ticket is
 * rewritten in place (a HOT update). The list by activity reads this table's indexes in
 * order and joins each ticket by id.
 */
export const ticketActivity = pgTable(
  'ticket_activity',
  {
    id: bigint('id', { mode: 'number' })
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    clientId: tenant(),
    status: text('status', { enum: ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'] }).notNull(),
    assigneeId: uuid('assignee_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The ticket's channel (it never changes), so a page filtered by channel reads it here (0037). */
    channel: text('channel').$type<ChannelCode>().notNull(),
    /** The ticket's creation (it does not change), for the table's EXPIRED filter (0043). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // After the order: the EXPIRED filter (as in 0028) and the channel filter are tested on
    // the index entries, so a page joins only the tickets it shows.
    index('ticket_activity_status_idx').on(
      table.clientId,
      table.status,
      table.lastMessageAt.desc(),
      table.id.desc(),
      table.expiresAt,
      table.channel,
    ),
    index('ticket_activity_assignee_idx').on(
      table.clientId,
      table.assigneeId,
      table.lastMessageAt.desc(),
      table.id.desc(),
      table.channel,
      table.status,
    ),
    // The table's EXPIRED filter, newest created first: open chats only, with the expiry
    // tested on the index entry, so a page joins only the tickets it shows (0043).
    index('ticket_activity_open_created_idx')
      .on(table.clientId, table.status, table.createdAt.desc(), table.id.desc(), table.expiresAt)
      .where(sql`status in ('UNASSIGNED', 'ASSIGNED')`),
  ],
);
