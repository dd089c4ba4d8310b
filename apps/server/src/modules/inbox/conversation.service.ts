import type { MessageView, SendMessageBody, TicketSummary } from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEventsAtCommit, type NewEvent } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { notFound } from '../../platform/http/http-errors';
import { GroupCommitQueue } from '../../platform/jobs/group-commit';
import type { ChannelRegistry } from '../channels/channel-adapter';
import type { AttachmentStore, StoredAttachment } from './attachment-store';
import { findRoom, findRoomOfIdentity } from './chat-room.repository';
import {
  type InboundCustomer,
  type InboundOutcome,
  type InboundRowInput,
  storeInboundMessage,
  storeInboundMessages,
} from './inbound.repository';
import {
  countsEvent,
  emitMessageUpdated,
  emitTyping,
  messageCreatedEvent,
  ticketEvent,
} from './inbox.realtime';
import { advanceByProviderId, advanceRoomUpTo } from './message.repository';
import { MessageDeliveryService } from './message-delivery.service';
import { messageView } from './message-view';
import { OutboundMessageService } from './outbound-message.service';
import { type MessageRow, presentTicket, previewOf, type TicketRow } from './ticket.presenter';
import { findOpenTicketOfRoom, findTicket } from './ticket.repository';

/** What a channel adapter hands over for one customer message. */
export interface InboundInput {
  clientId: string;
  channelAccountId: string;
  customer: InboundCustomer;
  /** The provider's id for the message: a repeat of it is a duplicate. */
  providerMessageId?: string | null;
  /** The sender's own id for the message (the widget's): a repeat of it is a duplicate. */
  clientMessageId?: string | null;
  text: string;
  attachments?: StoredAttachment[];
  sentAt?: Date;
}

/** Group commit of customers' messages (`INBOUND_BATCH_MAX`, `INBOUND_BATCH_IN_FLIGHT`). */
export interface InboundBatching {
  /** Messages in one transaction at most; 1 stores each alone. */
  batchMax: number;
  /** Those transactions of one client at once. */
  inFlight: number;
}

/** A customer message with the time it arrived. */
type ArrivedInput = InboundInput & { sentAt: Date };

function rowInputOf(input: ArrivedInput): InboundRowInput {
  const attachments = input.attachments ?? [];
  return {
    clientId: input.clientId,
    channelAccountId: input.channelAccountId,
    customer: input.customer,
    providerMessageId: input.providerMessageId ?? null,
    clientMessageId: input.clientMessageId ?? null,
    text: input.text,
    attachments,
    preview: previewOf(input.text, attachments),
    sentAt: input.sentAt,
  };
}

/** The stored message and its ticket; `duplicate` when it was a repeat of one already stored. */
export interface InboundResult {
  message: MessageView;
  ticket: TicketSummary;
  duplicate: boolean;
  contactIdentityId: string;
  roomId: string;
}

/** Which outbound messages a receipt moves: one by the provider's id, or a room's up to an id. */
export type DeliveryTarget =
  | { clientId: string; channelAccountId: string; providerMessageId: string }
  | { clientId: string; roomId: string; upToMessageId: number };

/**
 * The conversation seam: every channel hands customer messages to `receiveInbound` and
 * its receipts to `updateDeliveryStatus`; agents' messages leave through `sendMessage`
 * (the outbound service) and the delivery job.
 */
export class ConversationService {
  /** Agents' messages: send, retry, delete, typing. */
  readonly outbound: OutboundMessageService;
  /** The delivery job's work: hand a pending message to its channel's adapter. */
  readonly delivery: MessageDeliveryService;

  constructor(
    private readonly db: Database,
    private readonly attachments: AttachmentStore,
    channelRegistry: ChannelRegistry,
    inbound: InboundBatching,
  ) {
    this.inbound = new GroupCommitQueue<ArrivedInput, InboundResult>({
      one: (input) => this.receiveOne(input),
      many: (clientId, inputs) => this.receiveMany(clientId, inputs),
      maxInFlight: inbound.inFlight,
      maxBatch: inbound.batchMax,
      // One customer's messages are stored in the order they arrived.
      orderKey: (input) => `${input.channelAccountId}:${input.customer.externalId}`,
    });
    this.outbound = new OutboundMessageService(db, attachments);
    this.delivery = new MessageDeliveryService(db, channelRegistry);
  }

  /** An agent's message (POST chat/secure); see OutboundMessageService.send. */
  sendMessage(auth: AuthContext, body: SendMessageBody): Promise<{ message: MessageView; created: boolean }> {
    return this.outbound.send(auth, body);
  }

  /**
   * One customer message. It is stored in one transaction with everything it changes:
   * contact, identity, room and (when the room has none open) a new ticket, the message, the
   * ticket's preview and counters, and the events. A repeated provider or client message id
   * returns the first message unchanged. When a client's messages arrive faster than they are
   * stored, the ones waiting share a transaction (group commit, `GroupCommitQueue`): each is
   * still kept or refused on its own. The time it arrived is its time, however long it waited.
   */
  receiveInbound(input: InboundInput): Promise<InboundResult> {
    return this.inbound.submit(input.clientId, { ...input, sentAt: input.sentAt ?? new Date() });
  }

  /** Messages of one client stored together, at most this many transactions at once. */
  readonly inbound: GroupCommitQueue<ArrivedInput, InboundResult>;
  /** Messages a batch stored by its set path (the rest of a batch goes one by one). */
  readonly inboundStats = { storedTogether: 0 };

  /**
   * One message in its own transaction: the rows are written by one SQL function
   * (`storeInboundMessage`), which travels with the transaction's begin, and the events
   * travel with its commit: two round trips on PostgreSQL however much the message changes.
   */
  private async receiveOne(input: ArrivedInput): Promise<InboundResult> {
    return withTenant(this.db, input.clientId, async (tx) => {
      const stored = await storeInboundMessage(tx, rowInputOf(input));
      if (stored.outcome === 'no_account') throw notFound('Channel account not found');
      const events: NewEvent[] = [];
      const result = await this.placed(tx, input.clientId, stored, events);
      await appendEventsAtCommit(tx, events);
      return result;
    });
  }

  /**
   * Several messages of one client in one transaction, still two round trips. A message the
   * batch did not keep (its own error, an unknown account) answers `undefined`, and the queue
   * stores it again alone, where its error is its sender's.
   */
  private async receiveMany(
    clientId: string,
    inputs: ArrivedInput[],
  ): Promise<Array<InboundResult | undefined>> {
    return withTenant(this.db, clientId, async (tx) => {
      const answers = await storeInboundMessages(tx, clientId, inputs.map(rowInputOf));
      const events: NewEvent[] = [];
      const results: Array<InboundResult | undefined> = [];
      for (const stored of answers) {
        if (stored.outcome === 'failed' || stored.outcome === 'no_account') results.push(undefined);
        else {
          if (stored.outcome === 'stored' && stored.together) this.inboundStats.storedTogether += 1;
          results.push(await this.placed(tx, clientId, stored, events));
        }
      }
      await appendEventsAtCommit(tx, events);
      return results;
    });
  }

  /** A stored or repeated message as its sender is answered; a stored one's events join `events`. */
  private async placed(
    tx: Executor,
    clientId: string,
    stored: Exclude<InboundOutcome, { outcome: 'no_account' }>,
    events: NewEvent[],
  ): Promise<InboundResult> {
    const message = await messageView(tx, this.attachments, stored.message);
    const result: InboundResult = {
      message,
      ticket: presentTicket(stored.ticket),
      duplicate: stored.outcome === 'repeat',
      contactIdentityId: stored.contactIdentityId,
      roomId: stored.roomId,
    };
    // A repeat writes nothing and announces nothing.
    if (stored.outcome === 'repeat') return result;
    if (stored.opened)
      events.push(ticketEvent('created', stored.ticket), countsEvent(clientId, [], stored.counters));
    events.push(messageCreatedEvent(message, stored.ticket, stored.contactIdentityId, stored.before));
    return result;
  }

  /** Provider receipts and the widget's delivered/read marks: forward only, outbound only. */
  async updateDeliveryStatus(target: DeliveryTarget, status: 'DELIVERED' | 'READ'): Promise<number> {
    return withTenant(this.db, target.clientId, async (tx) => {
      let rows: MessageRow[];
      if ('providerMessageId' in target) {
        rows = await advanceByProviderId(
          tx,
          target.clientId,
          target.channelAccountId,
          target.providerMessageId,
          status,
        );
      } else {
        const room = await findRoom(tx, target.clientId, target.roomId);
        if (!room) return 0;
        rows = await advanceRoomUpTo(tx, target.clientId, room.id, target.upToMessageId, status);
      }
      const tickets = new Map<number, TicketRow | undefined>();
      for (const row of rows) {
        if (!tickets.has(row.ticketId))
          tickets.set(row.ticketId, await findTicket(tx, target.clientId, row.ticketId));
        const ticket = tickets.get(row.ticketId);
        const room = await findRoom(tx, target.clientId, row.roomId);
        if (ticket && room) await emitMessageUpdated(tx, row, ticket, room.contactIdentityId);
      }
      return rows.length;
    });
  }

  /** The customer is typing (the widget says so): the agents with the chat open hear it. */
  async customerTyping(input: { clientId: string; contactIdentityId: string; typing: boolean }) {
    await withTenant(this.db, input.clientId, async (tx) => {
      const room = await findRoomOfIdentity(tx, input.clientId, input.contactIdentityId);
      if (!room) return;
      const ticket = await findOpenTicketOfRoom(tx, input.clientId, room.id);
      if (!ticket) return;
      await emitTyping(tx, ticket, { who: 'CUSTOMER', name: ticket.customerName, typing: input.typing });
    });
  }
}
