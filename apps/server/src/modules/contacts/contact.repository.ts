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

/** The identity a channel account knows a customer by (its phone number, PSID, visitor id). */
export async function findIdentity(
  db: Executor,
  clientId: string,
  channelAccountId: string,
  externalId: string,
): Promise<ContactIdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(contactIdentities)
    .where(
      and(
        eq(contactIdentities.clientId, clientId),
        eq(contactIdentities.channelAccountId, channelAccountId),
        eq(contactIdentities.externalId, externalId),
      ),
    );
  return row;
}

export async function findIdentityById(db: Executor, clientId: string, identityId: string) {
  const [row] = await db
    .select()
    .from(contactIdentities)
    .where(and(eq(contactIdentities.clientId, clientId), eq(contactIdentities.id, identityId)));
  return row as ContactIdentityRow | undefined;
}

/**
 * A new contact with its first identity. The caller holds the customer's lock, so the
 * identity cannot appear in between; its unique key is still the last word.
 */
export async function createContactWithIdentity(
  db: Executor,
  clientId: string,
  channelAccountId: string,
  externalId: string,
  customer: CustomerDetails,
): Promise<{ contact: ContactRow; identity: ContactIdentityRow }> {
  const [contact] = await db
    .insert(contacts)
    .values({
      clientId,
      name: customer.name,
      phone: customer.phone ?? null,
      email: customer.email ?? null,
      notes: customer.notes ?? null,
    })
    .returning();
  const [identity] = await db
    .insert(contactIdentities)
    .values({ clientId, contactId: contact.id, channelAccountId, externalId })
    .returning();
  return { contact, identity };
}

/** Fills a contact's blank phone, e-mail or notes from what the customer now tells; never overwrites. */
export async function fillContactBlanks(
  db: Executor,
  contact: ContactRow,
  customer: CustomerDetails,
): Promise<ContactRow> {
  const changes: Partial<Pick<ContactRow, 'phone' | 'email' | 'notes'>> = {};
  if (!contact.phone && customer.phone) changes.phone = customer.phone;
  if (!contact.email && customer.email) changes.email = customer.email;
  if (!contact.notes && customer.notes) changes.notes = customer.notes;
  if (Object.keys(changes).length === 0) return contact;
  const [row] = await db
    .update(contacts)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(contacts.clientId, contact.clientId), eq(contacts.id, contact.id)))
    .returning();
  return row;
}
