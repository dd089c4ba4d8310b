import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenant } from './columns';

/**
 * Each client's distinct customer names as tickets carry them, lowered, kept by triggers on
 * tickets (migration 0045). A keyword search asks this table's trigram index for the names that
 * contain the keyword, then the tickets by name: at a million tickets there are about 150,000
 * names, so the trigram index merges a seventh of the entries the tickets' own one did. A name
 * is never removed (a ticket's name does not change, and a name without tickets finds none).
 */
export const ticketCustomerNames = pgTable(
  'ticket_customer_names',
  {
    clientId: tenant(),
    /** `lower(tickets.customer_name)`. */
    name: text('name').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.clientId, table.name] }),
    index('ticket_customer_names_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
  ],
);
