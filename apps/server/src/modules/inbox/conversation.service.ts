import {
  channels,
  chatExpiryMs,
  type MessageView,
  type SendMessageBody,
  type TicketSummary,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { notFound } from '../../platform/http/http-errors';
import type { ChannelRegistry } from '../channels/channel-adapter';
import {
  type ContactRow,
  createContactWithIdentity,
  fillContactBlanks,
  findContact,
  findIdentity,
} from '../contacts/contact.repository';
import type { AttachmentStore, StoredAttachment } from './attachment-store';
import {
  findChannelAccount,
  findRoom,
  findRoomOfIdentity,
  insertRoom,
  lockCustomer,
  touchRoom,
} from './chat-room.repository';
import {
  emitCountsChanged,
  emitMessageCreated,
  emitMessageUpdated,
  emitTicketEvent,
  emitTyping,
} from './inbox.realtime';
import {
  advanceByProviderId,
  advanceRoomUpTo,
  findByClientMessageId,
  findByProviderId,
  insertMessage,
} from './message.repository';
import { MessageDeliveryService } from './message-delivery.service';
import { messageView } from './message-view';
import { OutboundMessageService } from './outbound-message.service';
import { type MessageRow, presentTicket, previewOf, type TicketRow } from './ticket.presenter';
import { applyInboundMessage, findOpenTicketOfRoom, findTicket, insertOpenTicket } from './ticket.repository';

/** What a channel adapter hands over for one customer message. */
export interface InboundInput {
  clientId: string;
  channelAccountId: string;
  customer: {
    externalId: string;
    name: string;
    phone?: string | null;
    email?: string | null;
    notes?: string | null;
  };
  /** The provider's id for the message: a repeat of it is a duplicate. */
  providerMessageId?: string | null;
  /** The sender's own id for the message (the widget's): a repeat of it is a duplicate. */
  clientMessageId?: string | null;
  text: string;
  attachments?: StoredAttachment[];
  sentAt?: Date;
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
  ) {
    this.outbound = new OutboundMessageService(db, attachments);
    this.delivery = new MessageDeliveryService(db, channelRegistry);
  }

  /** An agent's message (POST chat/secure); see OutboundMessageService.send. */
  sendMessage(auth: AuthContext, body: SendMessageBody): Promise<{ message: MessageView; created: boolean }> {
    return this.outbound.send(auth, body);
  }

  /**
   * One customer message, in one transaction: contact, identity, room and (when the room
   * has none open) a new ticket, the message, the ticket's preview and counters, and the
   * events. A repeated provider or client message id returns the first message unchanged.
   */
  async receiveInbound(input: InboundInput): Promise<InboundResult> {
    const sentAt = input.sentAt ?? new Date();
    return withTenant(this.db, input.clientId, async (tx) => {
      const { clientId } = input;
      const account = await findChannelAccount(tx, clientId, input.channelAccountId);
      if (!account) throw notFound('Channel account not found');
      await lockCustomer(tx, account.id, input.customer.externalId);

      let identity = await findIdentity(tx, clientId, account.id, input.customer.externalId);
      const repeat = await this.findInboundRepeat(tx, input, identity?.id);
      if (repeat) return this.repeatResult(tx, repeat);

      let contact: ContactRow | undefined;
      if (identity) {
        contact = await findContact(tx, clientId, identity.contactId);
        if (contact) contact = await fillContactBlanks(tx, contact, input.customer);
      }
      if (!identity || !contact) {
        ({ contact, identity } = await createContactWithIdentity(
          tx,
          clientId,
          account.id,
          input.customer.externalId,
          input.customer,
        ));
      }
      const room =
        (await findRoomOfIdentity(tx, clientId, identity.id)) ??
        (await insertRoom(tx, {
          clientId,
          channelAccountId: account.id,
          channel: account.channel,
          contactId: contact.id,
          contactIdentityId: identity.id,
          name: contact.name,
          customerPhoneNumber: contact.phone,
        }));

      let ticket = await findOpenTicketOfRoom(tx, clientId, room.id);
      let opened = false;
      if (!ticket) {
        ticket = await insertOpenTicket(tx, {
          clientId,
          roomId: room.id,
          contactId: contact.id,
          channelAccountId: account.id,
          channel: account.channel,
          customerName: contact.name,
          customerPhone: contact.phone,
          customerEmail: contact.email,
          createdAt: sentAt,
          lastMessageAt: sentAt,
        });
        opened = ticket !== undefined;
        ticket ??= await findOpenTicketOfRoom(tx, clientId, room.id);
        if (!ticket) throw new Error(`room ${room.id} has no open ticket after opening one`);
      }

      const attachments = input.attachments ?? [];
      const inserted = await insertMessage(tx, {
        clientId,
        roomId: room.id,
        ticketId: ticket.id,
        channelAccountId: account.id,
        kind: 'PublicMessage',
        direction: 'INBOUND',
        senderType: 'CUSTOMER',
        senderId: identity.id,
        senderName: contact.name,
        senderRef: `identity:${identity.id}`,
        text: input.text,
        attachments,
        status: 'DELIVERED',
        providerMessageId: input.providerMessageId ?? null,
        clientMessageId: input.clientMessageId ?? null,
        createdAt: sentAt,
        updatedAt: sentAt,
      });
      if (!inserted) {
        // Only a provider id reused by another customer of the account can land here.
        const first = await this.findInboundRepeat(tx, input, identity.id);
        if (first) return this.repeatResult(tx, first);
        throw new Error('inbound message was neither stored nor found');
      }

      const expiresAt = channels[account.channel].hasExpiryDate
        ? new Date(sentAt.getTime() + chatExpiryMs)
        : null;
      const before = opened ? null : ticket;
      ticket = await applyInboundMessage(tx, clientId, ticket.id, {
        preview: previewOf(input.text, attachments),
        at: sentAt,
        expiresAt,
      });
      await touchRoom(tx, clientId, room.id, { currentTicketId: ticket.id, lastMessageAt: sentAt });

      const message = await messageView(tx, this.attachments, inserted);
      if (opened) {
        await emitTicketEvent(tx, 'created', ticket);
        await emitCountsChanged(tx, clientId, []);
      }
      await emitMessageCreated(tx, message, ticket, identity.id, before);
      return {
        message,
        ticket: presentTicket(ticket),
        duplicate: false,
        contactIdentityId: identity.id,
        roomId: room.id,
      };
    });
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

  private async findInboundRepeat(
    tx: Executor,
    input: InboundInput,
    identityId: string | undefined,
  ): Promise<MessageRow | undefined> {
    if (input.providerMessageId) {
      const found = await findByProviderId(
        tx,
        input.clientId,
        input.channelAccountId,
        input.providerMessageId,
      );
      if (found) return found;
    }
    if (input.clientMessageId && identityId)
      return findByClientMessageId(tx, input.clientId, `identity:${identityId}`, input.clientMessageId);
    return undefined;
  }

  /** The first delivery's answer, for a repeat: nothing is written, nothing is announced. */
  private async repeatResult(tx: Executor, first: MessageRow): Promise<InboundResult> {
    const ticket = await findTicket(tx, first.clientId, first.ticketId);
    const room = await findRoom(tx, first.clientId, first.roomId);
    if (!ticket || !room) throw new Error(`message ${first.id} lost its ticket or room`);
    return {
      message: await messageView(tx, this.attachments, first),
      ticket: presentTicket(ticket),
      duplicate: true,
      contactIdentityId: room.contactIdentityId,
      roomId: room.id,
    };
  }
}
