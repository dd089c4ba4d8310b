import {
  type MessageView,
  type PushNotificationPayload,
  type PushStateResponse,
  pushErrorMessages,
  pushLimits,
  type TicketSummary,
  type UserProfileBody,
} from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest } from '../../platform/http/http-errors';
import {
  deleteSessionSubscriptions,
  findLiveSubscriptionsOfUsers,
  findQueueWatchers,
  findSubscription,
  markSubscription,
  sessionHasLiveSubscription,
  upsertSubscription,
} from './push.repository';
import type { VapidKeys } from './vapid.keys';
import type { WebPushSender } from './web-push.sender';

export interface PushServiceOptions {
  /** Accept http://127.0.0.1 and http://localhost endpoints (a local push service; never in production). */
  allowLocalHttp: boolean;
}

/** One push waiting to go to one subscription. */
/** What planning reads of a new message and its ticket. */
type PlannedMessage = Pick<MessageView, 'direction' | 'kind' | 'text'>;
type PlannedTicket = Pick<TicketSummary, 'id' | 'status' | 'assigneeId' | 'lastMessagePreview'> & {
  customer: { name: string };
};

export interface PushDelivery {
  subscriptionId: string;
  notification: PushNotificationPayload;
}

/**
 * Web Push for agents (issue 14). Each session may store one browser subscription; a new
 * customer message is announced to the ticket's assignee, or, while nobody holds the chat,
 * to the client's owners, admins and supervisors. Delivery decisions are taken by the
 * device: the server pushes to every live subscription of the recipients, and the service
 * worker stays silent when a window of the app is visible (the page shows its own alert).
 */
export class PushService {
  constructor(
    private readonly db: Database,
    private readonly vapid: VapidKeys,
    private readonly sender: WebPushSender,
    private readonly logger: FastifyBaseLogger,
    private readonly options: PushServiceOptions,
  ) {}

  /** The key browsers subscribe with (applicationServerKey). */
  publicKey(): { publicKey: string } {
    return { publicKey: this.vapid.publicKey };
  }

  /** PUT users/userProfile: stores this session's subscription, or removes it when null. */
  async saveProfile(
    caller: AuthContext,
    body: UserProfileBody,
    userAgent?: string,
  ): Promise<PushStateResponse> {
    const subscription = body.pushSubscription;
    if (subscription && !this.endpointAllowed(subscription.endpoint)) {
      throw badRequest(pushErrorMessages.insecureEndpoint);
    }
    return withTenant(this.db, caller.clientId, async (tx) => {
      if (!subscription) {
        await deleteSessionSubscriptions(tx, caller.clientId, caller.sessionId);
        return { pushEnabled: false };
      }
      // One subscription per session: a browser that re-subscribed replaces its old endpoint.
      await deleteSessionSubscriptions(tx, caller.clientId, caller.sessionId);
      await upsertSubscription(tx, {
        clientId: caller.clientId,
        userId: caller.userId,
        sessionId: caller.sessionId,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        userAgent: userAgent?.slice(0, 500) ?? null,
      });
      return { pushEnabled: true };
    });
  }

  /**
   * POST pushnotif/offline: the app went to the background or is closing. Pushes already go
   * to every live subscription, so this only answers whether this session will get them;
   * false tells the app to offer activation again (the subscription expired or was removed).
   */
  async wentOffline(caller: AuthContext): Promise<PushStateResponse> {
    const pushEnabled = await withTenant(this.db, caller.clientId, (tx) =>
      sessionHasLiveSubscription(tx, caller.clientId, caller.sessionId),
    );
    return { pushEnabled };
  }

  /** A session ended (sign-out, password change, revoked by an admin): its pushes stop. */
  async dropSession(clientId: string, sessionId: string): Promise<void> {
    await withTenant(this.db, clientId, (tx) => deleteSessionSubscriptions(tx, clientId, sessionId));
  }

  /**
   * Who is pushed for a batch of new messages (the relay hands them over in batches): a
   * customer's public message in an open chat goes to the assignee, or for an unassigned
   * chat to those who watch the queue; one query per client finds every live subscription.
   */
  async planForMessages(
    messages: ReadonlyArray<{ clientId: string; message: PlannedMessage; ticket: PlannedTicket }>,
  ): Promise<Array<PushDelivery & { clientId: string }>> {
    const byClient = new Map<string, Array<{ message: PlannedMessage; ticket: PlannedTicket }>>();
    for (const { clientId, message, ticket } of messages) {
      if (message.direction !== 'INBOUND' || message.kind !== 'PublicMessage') continue;
      if (ticket.status === 'CLOSED' || ticket.status === 'RESOLVED') continue;
      const list = byClient.get(clientId) ?? [];
      list.push({ message, ticket });
      byClient.set(clientId, list);
    }
    const deliveries: Array<PushDelivery & { clientId: string }> = [];
    for (const [clientId, list] of byClient) {
      const { watchers, subscriptions } = await withTenant(this.db, clientId, async (tx) => {
        const watchers = list.some(({ ticket }) => !ticket.assigneeId)
          ? await findQueueWatchers(tx, clientId)
          : [];
        const assignees = list.flatMap(({ ticket }) => (ticket.assigneeId ? [ticket.assigneeId] : []));
        const users = [...new Set([...watchers, ...assignees])];
        return { watchers, subscriptions: await findLiveSubscriptionsOfUsers(tx, clientId, users) };
      });
      if (subscriptions.length === 0) continue;
      for (const { message, ticket } of list) {
        const recipients = new Set(ticket.assigneeId ? [ticket.assigneeId] : watchers);
        const preview = (ticket.lastMessagePreview || message.text).slice(0, pushLimits.previewMax);
        const notification: PushNotificationPayload = {
          title: ticket.customer.name,
          body: preview,
          url: `/customer-service/inbox-chatroom?ticketId=${ticket.id}`,
          tag: `ticket-${ticket.id}`,
        };
        for (const subscription of subscriptions)
          if (recipients.has(subscription.userId))
            deliveries.push({ clientId, subscriptionId: subscription.id, notification });
      }
    }
    return deliveries;
  }

  /**
   * Sends one push. A gone subscription is marked expired and never tried again; a
   * retryable failure throws so the job retries with backoff; a refusal is logged and dropped.
   */
  async deliver(clientId: string, delivery: PushDelivery): Promise<void> {
    const subscription = await withTenant(this.db, clientId, (tx) =>
      findSubscription(tx, clientId, delivery.subscriptionId),
    );
    if (!subscription || subscription.expiredAt) return;
    let outcome: 'delivered' | 'gone';
    try {
      outcome = await this.sender.send(subscription, delivery.notification, {
        urgency: 'high',
        topic: delivery.notification.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      });
    } catch (error) {
      if ((error as { retryable?: boolean }).retryable) throw error;
      this.logger.warn({ err: error, subscriptionId: subscription.id }, 'push refused; not retried');
      return;
    }
    await withTenant(this.db, clientId, (tx) => markSubscription(tx, clientId, subscription.id, outcome));
  }

  private endpointAllowed(endpoint: string): boolean {
    const url = new URL(endpoint);
    if (url.protocol === 'https:') return true;
    return (
      this.options.allowLocalHttp &&
      url.protocol === 'http:' &&
      (url.hostname === '127.0.0.1' || url.hostname === 'localhost')
    );
  }
}
