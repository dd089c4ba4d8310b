import type { ChannelCode } from '@app/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { channelAccounts, chatRooms, contactIdentities, contacts, messages, tickets } from '../db/schema';

/**
 * Inbox rows written straight into the tables, for tests that need a known inbox without
 * going through inbound webhooks. The writes use the database owner's connection, so
 * row-level security does not apply; every row still carries its client's id.
 */

export type ChannelAccountRow = typeof channelAccounts.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type ChatRoomRow = typeof chatRooms.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
type NewTicket = typeof tickets.$inferInsert;
type NewMessage = typeof messages.$inferInsert;

let sequence = 0;
const nextTag = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

/** A connected channel account of the client (live chat unless said otherwise). */
export async function createChannelAccount(
  db: Database,
  clientId: string,
  options: { channel?: ChannelCode; name?: string } = {},
): Promise<ChannelAccountRow> {
  const channel = options.channel ?? 'LVC';
  const [row] = await db
    .insert(channelAccounts)
    .values({
      clientId,
      channel,
      name: options.name ?? `${channel} ${nextTag()}`,
      status: 'CONNECTED',
      connectedAt: new Date(),
    })
    .returning();
  return row;
}

export interface ConversationInput {
  clientId: string;
  /** The account the customer writes to; a fresh live-chat account when absent. */
  channelAccount?: Pick<ChannelAccountRow, 'id' | 'channel'>;
  customer?: { name?: string; phone?: string | null; email?: string | null };
  /** Ticket fields to set (status, assignee, tags, created time, ...). */
  ticket?: Partial<Omit<NewTicket, 'clientId' | 'roomId' | 'contactId' | 'channelAccountId' | 'channel'>>;
  /** Messages of the ticket, oldest first; customer messages unless said otherwise. */
  messages?: Array<Partial<Omit<NewMessage, 'clientId' | 'roomId' | 'ticketId'>> & { text: string }>;
}

export interface Conversation {
  channelAccount: Pick<ChannelAccountRow, 'id' | 'channel'>;
  contact: ContactRow;
  room: ChatRoomRow;
  ticket: TicketRow;
  messages: MessageRow[];
}

/**
 * A customer with one identity, room and ticket on a channel account, and the ticket's
 * messages. Each call makes a new customer, so open tickets never collide in one room.
 */
export async function createConversation(db: Database, input: ConversationInput): Promise<Conversation> {
  const { clientId } = input;
  const tag = nextTag();
  const channelAccount = input.channelAccount ?? (await createChannelAccount(db, clientId));
  const name = input.customer?.name ?? `Customer ${tag}`;
  const phone = input.customer?.phone === undefined ? null : input.customer.phone;
  const email = input.customer?.email === undefined ? null : input.customer.email;
  const [contact] = await db.insert(contacts).values({ clientId, name, phone, email }).returning();
  const [identity] = await db
    .insert(contactIdentities)
    .values({
      clientId,
      contactId: contact.id,
      channelAccountId: channelAccount.id,
      externalId: `ext-${tag}`,
    })
    .returning();
  const [room] = await db
    .insert(chatRooms)
    .values({
      clientId,
      channelAccountId: channelAccount.id,
      channel: channelAccount.channel,
      contactId: contact.id,
      contactIdentityId: identity.id,
      name,
      customerPhoneNumber: phone,
    })
    .returning();
  const [ticket] = await db
    .insert(tickets)
    .values({
      customerName: name,
      customerPhone: phone,
      customerEmail: email,
      ...input.ticket,
      clientId,
      roomId: room.id,
      contactId: contact.id,
      channelAccountId: channelAccount.id,
      channel: channelAccount.channel,
    })
    .returning();
  await db
    .update(chatRooms)
    .set({ currentTicketId: ticket.id, lastMessageAt: ticket.lastMessageAt })
    .where(eq(chatRooms.id, room.id));
  room.currentTicketId = ticket.id;
  room.lastMessageAt = ticket.lastMessageAt;
  const stored: MessageRow[] = [];
  for (const [index, message] of (input.messages ?? []).entries()) {
    const fromCustomer = (message.senderType ?? 'CUSTOMER') === 'CUSTOMER';
    const [row] = await db
      .insert(messages)
      .values({
        kind: 'PublicMessage',
        direction: fromCustomer ? 'INBOUND' : 'OUTBOUND',
        senderType: fromCustomer ? 'CUSTOMER' : 'AGENT',
        senderName: fromCustomer ? name : 'Agent',
        senderRef: fromCustomer ? `identity:${identity.id}` : `user:${message.senderId ?? 'agent'}`,
        status: fromCustomer ? 'DELIVERED' : 'SENT',
        providerMessageId: fromCustomer ? `provider-${tag}-${index}` : null,
        ...message,
        clientId,
        roomId: room.id,
        ticketId: ticket.id,
        channelAccountId: channelAccount.id,
      })
      .returning();
    stored.push(row);
  }
  return { channelAccount, contact, room, ticket, messages: stored };
}
