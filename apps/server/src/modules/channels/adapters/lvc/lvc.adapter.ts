import type { ChannelAdapter, DeliveryReceipt, OutboundDelivery } from '../../channel-adapter';

/**
 * The website live chat's outbound half. There is no provider to call: an agent's reply
 * reaches the visitor through its `inbox.message_created` event, which carries the
 * visitor's room and which the visitor hub forwards to the widget's sockets. Delivered and
 * read marks come back from the widget itself, so the message is only SENT here.
 */
export class LiveChatAdapter implements ChannelAdapter {
  readonly channel = 'LVC' as const;

  async deliver(_delivery: OutboundDelivery): Promise<DeliveryReceipt> {
    return { providerMessageId: null, status: 'SENT' };
  }
}
