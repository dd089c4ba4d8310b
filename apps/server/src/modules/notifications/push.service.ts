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
   * The pushes a new message calls for: only a customer's message, to the assignee or (for
   * a chat nobody holds, such as a new one) the queue's watchers, one per live subscription.
   */
  async planForMessage(
    clientId: string,
    message: MessageView,
    ticket: TicketSummary,
  ): Promise<PushDelivery[]> {
    if (message.direction !== 'INBOUND' || message.kind !== 'PublicMessage') return [];
    if (ticket.status === 'CLOSED' || ticket.status === 'RESOLVED') return [];
    const subscriptions = await withTenant(this.db, clientId, async (tx) => {
      const recipients = ticket.assigneeId ? [ticket.assigneeId] : await findQueueWatchers(tx, clientId);
      return findLiveSubscriptionsOfUsers(tx, clientId, recipients);
    });
    const preview = (ticket.lastMessagePreview || message.text).slice(0, pushLimits.previewMax);
    const notification: PushNotificationPayload = {
      title: ticket.customer.name,
      body: preview,
      url: `/customer-service/inbox-chatroom?ticketId=${ticket.id}`,
      tag: `ticket-${ticket.id}`,
    };
    return subscriptions.map((subscription) => ({ subscriptionId: subscription.id, notification }));
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
