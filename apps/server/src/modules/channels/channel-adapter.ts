import type { ChannelCode } from '@app/contracts';

/** One outbound message as an adapter hands it to its provider. */
export interface OutboundDelivery {
  clientId: string;
  channelAccountId: string;
  roomId: string;
  ticketId: number;
  messageId: number;
  contactIdentityId: string;
  /** The customer's id on the channel (phone number, PSID, visitor id). */
  externalId: string;
  text: string;
  attachments: ReadonlyArray<{ id: string; name: string; mime: string; size: number }>;
}

/** What the provider answered: its id for the message, and how far it got. */
export interface DeliveryReceipt {
  providerMessageId: string | null;
  status: 'SENT' | 'DELIVERED';
}

/**
 * A provider refused or could not be reached; `retryable` decides between retry and FAILED,
 * and `retryAfterSeconds` is how long the provider asked to be left alone (a 429's retry_after).
 */
export class DeliveryError extends Error {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
    this.name = 'DeliveryError';
  }
}

/**
 * A channel's outbound half. Inbound goes the other way: an adapter (a webhook, the
 * live-chat socket) turns what the provider sent into `ConversationService.receiveInbound`.
 */
export interface ChannelAdapter {
  channel: ChannelCode;
  deliver(delivery: OutboundDelivery): Promise<DeliveryReceipt>;
}

/** The adapters this process knows, by channel code. */
export class ChannelRegistry {
  private readonly adapters = new Map<ChannelCode, ChannelAdapter>();

  register(adapter: ChannelAdapter): void {
    this.adapters.set(adapter.channel, adapter);
  }

  get(channel: ChannelCode): ChannelAdapter | undefined {
    return this.adapters.get(channel);
  }
}
