import { inboxErrors } from '@app/contracts';
import type { Database } from '../../db/client';
import { readInTenant, withTenant } from '../../db/tenant';
import { readTogether } from '../../db/tenant-connections';
import { type ChannelRegistry, DeliveryError, type OutboundDelivery } from '../channels/channel-adapter';
import { customerOfMessageQuery, identityOfRow, roomOfMessageQuery, roomOfRow } from './chat-room.repository';
import { emitMessageUpdated } from './inbox.realtime';
import { type DeliveryRecord, messageOfRow, messageQuery, recordDeliveryQuery } from './message.repository';
import { ticketOfMessageQuery, ticketOfRow } from './ticket.repository';

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
    // One round trip: the message, its ticket, its room and the customer, each by the message's id.
    const work = await readInTenant(this.db, clientId, async (tx) => {
      const [messageRows, ticketRows, roomRows, identityRows] = await readTogether(tx, [
        messageQuery(clientId, messageId),
        ticketOfMessageQuery(clientId, messageId),
        roomOfMessageQuery(clientId, messageId),
        customerOfMessageQuery(clientId, messageId),
      ]);
      const message = messageRows[0] ? messageOfRow(messageRows[0]) : undefined;
      if (!message || message.status !== 'PENDING') return null;
      if (message.direction !== 'OUTBOUND' || message.kind !== 'PublicMessage') return null;
      const ticket = ticketRows[0] ? ticketOfRow(ticketRows[0]) : undefined;
      const room = roomRows[0] ? roomOfRow(roomRows[0]) : undefined;
      const identity = identityRows[0] ? identityOfRow(identityRows[0]) : undefined;
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
        providerMessageId: null,
        failureReason: inboxErrors.channelNotConnected,
      });
      return 'done';
    }
    try {
      const receipt = await adapter.deliver(work.delivery);
      await this.record(clientId, messageId, {
        status: receipt.status,
        providerMessageId: receipt.providerMessageId ?? null,
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
      await this.record(clientId, messageId, {
        status: 'FAILED',
        providerMessageId: null,
        failureReason: failure.reason,
      });
      return 'done';
    }
  }

  /**
   * Moves a still-PENDING message on and tells the chat and the customer's widget: the update
   * and the reads of its ticket and room in one round trip, the event with the commit.
   */
  private async record(clientId: string, messageId: number, record: DeliveryRecord): Promise<void> {
    await withTenant(this.db, clientId, async (tx) => {
      const [updatedRows, ticketRows, roomRows] = await readTogether(tx, [
        recordDeliveryQuery(clientId, messageId, record),
        ticketOfMessageQuery(clientId, messageId),
        roomOfMessageQuery(clientId, messageId),
      ]);
      if (!updatedRows[0] || !ticketRows[0] || !roomRows[0]) return;
      const room = roomOfRow(roomRows[0]);
      await emitMessageUpdated(
        tx,
        messageOfRow(updatedRows[0]),
        ticketOfRow(ticketRows[0]),
        room.contactIdentityId,
      );
    });
  }
}
