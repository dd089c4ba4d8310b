import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { contactIdentities, contacts } from '../../db/schema';

export type ContactRow = typeof contacts.$inferSelect;
export type ContactIdentityRow = typeof contactIdentities.$inferSelect;

/** How a customer introduces themselves on a channel. */
export interface CustomerDetails {
  name: string;
  phone?: string | null;
  email?: string | null;
  /** What the customer told before the chat (a live-chat pre-chat form), kept as the contact's notes. */
  notes?: string | null;
}

/** A contact of the client. */
export async function findContact(db: Executor, clientId: string, contactId: string) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.clientId, clientId), eq(contacts.id, contactId)));
  return row as ContactRow | undefined;
}

export async function findIdentityById(db: Executor, clientId: string, identityId: string) {
  const [row] = await db
    .select()
    .from(contactIdentities)
    .where(and(eq(contactIdentities.clientId, clientId), eq(contactIdentities.id, identityId)));
  return row as ContactIdentityRow | undefined;
}
