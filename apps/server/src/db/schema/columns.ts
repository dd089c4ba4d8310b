import { timestamp, uuid } from 'drizzle-orm/pg-core';
import { clients } from './identity';

/** The client a row belongs to (row-level security keys on it); its rows go with the client. */
export const tenant = () =>
  uuid('client_id')
    .notNull()
    .references(() => clients.id, { onDelete: 'cascade' });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
