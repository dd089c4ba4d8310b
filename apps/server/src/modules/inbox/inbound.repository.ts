import { channels, chatExpiryMs } from '@app/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rowMapperOf } from '../../db/json-row';
import { messages, tickets } from '../../db/schema';
import type { StoredAttachment } from './attachment-store';
import type { Before } from './inbox.realtime';
import type { MessageRow, TicketRow } from './ticket.presenter';

/** The channels whose chats expire 24 hours after the customer's last message. */
const expiringChannels = Object.entries(channels)
  .filter(([, channel]) => channel.hasExpiryDate)
  .map(([code]) => code);
const expiryInterval = `${chatExpiryMs / 1000} seconds`;

/** The customer as the channel knows them; blank contact details are filled from it. */
export interface InboundCustomer {
  externalId: string;
  name: string;
  phone?: string | null;
  email?: string | null;
  notes?: string | null;
}

export interface InboundRowInput {
  clientId: string;
  channelAccountId: string;
  customer: InboundCustomer;
  providerMessageId: string | null;
  clientMessageId: string | null;
  text: string;
  attachments: StoredAttachment[];
  preview: string;
  sentAt: Date;
}

interface Placed {
  message: MessageRow;
  ticket: TicketRow;
  roomId: string;
  contactIdentityId: string;
}

export type InboundOutcome =
  | { outcome: 'no_account' }
  | ({ outcome: 'repeat' } & Placed)
  | ({
      outcome: 'stored';
      /** The message opened the ticket. */
      opened: boolean;
      /** The ticket's status and assignee before the message; null when it opened the ticket. */
      before: Before;
      /** The open-ticket counts (`all`, `unassigned`) after a ticket was opened. */
      counters: Map<string, number>;
      /** Stored by a batch's set path, with the batch's other plain messages (migration 0021). */
      together: boolean;
    } & Placed);

interface InboundJson {
  outcome: 'no_account' | 'repeat' | 'stored';
  message: Record<string, unknown>;
  ticket: Record<string, unknown>;
  room_id: string;
  identity_id: string;
  opened?: boolean;
  before?: { status: TicketRow['status']; assignee_id: string | null } | null;
  counters?: Record<string, number> | null;
  together?: boolean;
}

/**
 * Stores one customer message through `inbox_receive_inbound` (migration 0016): the
 * account, the customer's lock, the identity, a repeat check, contact, room, open ticket,
 * message, ticket and room updates, in one round trip inside the caller's transaction.
 */
export async function storeInboundMessage(tx: Executor, input: InboundRowInput): Promise<InboundOutcome> {
  const { customer } = input;
  const result = (await tx.execute(sql`
    select inbox_receive_inbound(
      ${input.clientId}::uuid, ${input.channelAccountId}::uuid, ${customer.externalId}, ${customer.name},
      ${customer.phone ?? null}, ${customer.email ?? null}, ${customer.notes ?? null},
      ${input.providerMessageId}, ${input.clientMessageId}, ${input.text},
      ${JSON.stringify(input.attachments)}::jsonb, ${input.preview}, ${input.sentAt.toISOString()}::timestamptz,
      ${sql.param(expiringChannels)}::text[], ${expiryInterval}::interval) as answer`)) as unknown as {
    rows: Array<{ answer: InboundJson | string }>;
  };
  return outcomeOf(parsed(result.rows[0].answer));
}

/**
 * Stores several customer messages of one client through `inbox_receive_inbound_batch`
 * (migrations 0020, 0021), in one statement inside the caller's transaction, answered in
 * order: the plain messages (a known customer's only one, into an open ticket) together by
 * a few set statements, the others each in its own subtransaction; `failed` for one that
 * raised an error (nothing of it is kept) or that followed a failed message of the same
 * customer.
 */
export async function storeInboundMessages(
  tx: Executor,
  clientId: string,
  inputs: ReadonlyArray<InboundRowInput>,
): Promise<Array<InboundOutcome | { outcome: 'failed' }>> {
  const items = inputs.map((input) => ({
    account: input.channelAccountId,
    external_id: input.customer.externalId,
    name: input.customer.name,
    phone: input.customer.phone ?? null,
    email: input.customer.email ?? null,
    notes: input.customer.notes ?? null,
    provider_message_id: input.providerMessageId,
    client_message_id: input.clientMessageId,
    text: input.text,
    attachments: input.attachments,
    preview: input.preview,
    sent_at: input.sentAt.toISOString(),
  }));
  const result = (await tx.execute(sql`
    select inbox_receive_inbound_batch(${clientId}::uuid, ${JSON.stringify(items)}::jsonb,
      ${sql.param(expiringChannels)}::text[], ${expiryInterval}::interval) as answers`)) as unknown as {
    rows: Array<{ answers: Array<InboundJson | { outcome: 'failed' }> | string }>;
  };
  // A failed message is stored again alone by the caller, where its error is raised as such.
  return parsed(result.rows[0].answers).map((answer) =>
    answer.outcome === 'failed' ? { outcome: 'failed' as const } : outcomeOf(answer),
  );
}

function parsed<T>(raw: T | string): T {
  return typeof raw === 'string' ? (JSON.parse(raw) as T) : raw;
}

function outcomeOf(answer: InboundJson): InboundOutcome {
  if (answer.outcome === 'no_account') return { outcome: 'no_account' };
  const placed: Placed = {
    message: rowMapperOf(messages)(answer.message),
    ticket: rowMapperOf(tickets)(answer.ticket),
    roomId: answer.room_id,
    contactIdentityId: answer.identity_id,
  };
  if (answer.outcome === 'repeat') return { outcome: 'repeat', ...placed };
  return {
    outcome: 'stored',
    ...placed,
    opened: answer.opened === true,
    before: answer.before ? { status: answer.before.status, assigneeId: answer.before.assignee_id } : null,
    counters: new Map(Object.entries(answer.counters ?? {})),
    together: answer.together === true,
  };
}
