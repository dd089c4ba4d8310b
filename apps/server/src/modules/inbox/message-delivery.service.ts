import { inboxErrors } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { type ChannelRegistry, DeliveryError, type OutboundDelivery } from '../channels/channel-adapter';
import { findIdentityById } from '../contacts/contact.repository';
import { findRoom } from './chat-room.repository';
import { emitMessageUpdated } from './inbox.realtime';
import { findMessage, updateMessage } from './message.repository';
import type { MessageRow } from './ticket.presenter';
import { findTicket } from './ticket.repository';

/** How many times a retryable refusal is tried before the message is marked FAILED. */
export const maxDeliveryAttempts = 5;

/**
 * What the job does next: nothing more, or try again later (not sooner than the provider
 * asked, when it said).
 */
export type DeliveryOutcome = 'done' | { retry: true; notBeforeSeconds?: number };

/**
 * Hands one PENDING outbound public message to its channel's adapter, outside any
 * transaction (a provider call must not hold row locks), then records SENT, DELIVERED or
 * FAILED with the reason. Anything else (already sent, an internal note) is left alone,
 * so a repeated job is harmless.
 */
export class MessageDeliveryService {
  constructor(
    private readonly db: Database,
    private readonly channels: ChannelRegistry,
  ) {}

  async deliver(clientId: string, messageId: number, attempt: number): Promise<DeliveryOutcome> {
    const work = await withTenant(this.db, clientId, async (tx) => {
      const message = await findMessage(tx, clientId, messageId);
      if (!message || message.status !== 'PENDING') return null;
      if (message.direction !== 'OUTBOUND' || message.kind !== 'PublicMessage') return null;
      const ticket = await findTicket(tx, clientId, message.ticketId);
      const room = await findRoom(tx, clientId, message.roomId);
      const identity = room ? await findIdentityById(tx, clientId, room.contactIdentityId) : undefined;
      if (!ticket || !room || !identity) return null;
      const delivery: OutboundDelivery = {
        clientId,
        channelAccountId: message.channelAccountId,
        roomId: room.id,
        ticketId: ticket.id,
        messageId: message.id,
        contactIdentityId: identity.id,
        externalId: identity.externalId,
        text: message.text,
        attachments: message.attachments.map(({ id, name, mime, size }) => ({ id, name, mime, size })),
      };
      return { channel: ticket.channel, delivery };
    });
    if (!work) return 'done';

    const adapter = this.channels.get(work.channel);
    if (!adapter) {
      await this.record(clientId, messageId, {
        status: 'FAILED',
        failureReason: inboxErrors.channelNotConnected,
      });
      return 'done';
    }
    try {
      const receipt = await adapter.deliver(work.delivery);
      await this.record(clientId, messageId, {
        status: receipt.status,
        providerMessageId: receipt.providerMessageId,
        failureReason: null,
      });
      return 'done';
    } catch (error) {
      // An adapter that throws something else could not reach its provider: worth another try.
      const failure =
        error instanceof DeliveryError
          ? error
          : new DeliveryError(error instanceof Error ? error.message : 'Delivery failed', true);
      if (failure.retryable && attempt < maxDeliveryAttempts)
        return { retry: true, notBeforeSeconds: failure.retryAfterSeconds };
      await this.record(clientId, messageId, { status: 'FAILED', failureReason: failure.reason });
      return 'done';
    }
  }

  /** Moves a still-PENDING message on and tells the chat and the customer's widget. */
  private async record(
    clientId: string,
    messageId: number,
    changes: Partial<Pick<MessageRow, 'status' | 'failureReason' | 'providerMessageId'>>,
  ): Promise<void> {
    await withTenant(this.db, clientId, async (tx) => {
      const updated = await updateMessage(tx, clientId, messageId, changes, { onlyFrom: ['PENDING'] });
      if (!updated) return;
      const ticket = await findTicket(tx, clientId, updated.ticketId);
      const room = await findRoom(tx, clientId, updated.roomId);
      if (ticket && room) await emitMessageUpdated(tx, updated, ticket, room.contactIdentityId);
    });
  }
}
