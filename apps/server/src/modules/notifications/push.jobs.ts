import {
  eventTopics,
  inboxTopics,
  messageView,
  pushNotificationPayload,
  ticketSummary,
} from '@app/contracts';
import { z } from 'zod';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { PushService } from './push.service';

export const planPushJob = 'notifications.plan-message-push';
export const sendPushJob = 'notifications.send-push';
export const dropSessionPushJob = 'notifications.drop-session-push';

/**
 * What planning reads of each message event, and nothing more: a batch holds up to 100
 * events, and checking every field of each would hold the event loop for tens of ms.
 */
const plannedMessage = z.object({
  clientId: z.string().uuid(),
  payload: z.object({
    message: messageView.pick({ direction: true, kind: true, text: true }),
    ticket: ticketSummary
      .pick({ id: true, status: true, assigneeId: true, lastMessagePreview: true })
      .extend({
        customer: z.object({ name: z.string() }),
      }),
  }),
});
const messageJobs = z.object({ events: z.array(z.unknown()) });

/**
 * What the relay hands planning of a message event: the fields `plannedMessage` reads, for a
 * customer's public message only (planning announces nothing else). A payload of another
 * shape goes whole, for planning to skip.
 */
export function pushPlanningFields(payload: Record<string, unknown>): Record<string, unknown> | undefined {
  const { message, ticket } = payload as {
    message?: { direction?: unknown; kind?: unknown; text?: unknown };
    ticket?: {
      id?: unknown;
      status?: unknown;
      assigneeId?: unknown;
      lastMessagePreview?: unknown;
      customer?: { name?: unknown };
    };
  };
  if (!message || !ticket) return payload;
  if (message.direction !== 'INBOUND' || message.kind !== 'PublicMessage') return undefined;
  return {
    message: { direction: message.direction, kind: message.kind, text: message.text },
    ticket: {
      id: ticket.id,
      status: ticket.status,
      assigneeId: ticket.assigneeId,
      lastMessagePreview: ticket.lastMessagePreview,
      customer: { name: ticket.customer?.name },
    },
  };
}
const sendJob = z.object({
  clientId: z.string().uuid(),
  subscriptionId: z.string().uuid(),
  notification: pushNotificationPayload,
});
const sessionRevokedJob = z.object({
  clientId: z.string().uuid(),
  payload: z.object({ sessionId: z.string().uuid() }),
});

/**
 * Push's jobs, all after commit. New messages are planned in batches (who gets each), then each
 * subscription is its own job, so a push service that is down (429, 5xx) is retried with
 * backoff without repeating the pushes that already went. A new chat needs no job of its
 * own: it always opens with the customer's first message, whose event carries the ticket.
 * A revoked session (sign-out and the rest) loses its subscription.
 */
export async function registerPushJobs(
  push: PushService,
  queue: JobQueue,
  relay: OutboxRelay,
): Promise<void> {
  await queue.register({
    name: planPushJob,
    retryLimit: 3,
    concurrency: 2,
    handler: async (data) => {
      // An event that does not read as a message is skipped, not the batch: retrying could
      // never mend it, and it would hold back the pushes of the others.
      const events = messageJobs.parse(data).events.flatMap((event) => {
        const read = plannedMessage.safeParse(event);
        return read.success ? [read.data] : [];
      });
      const deliveries = await push.planForMessages(
        events.map(({ clientId, payload }) => ({
          clientId,
          message: payload.message,
          ticket: payload.ticket,
        })),
      );
      for (const delivery of deliveries) await queue.send(sendPushJob, delivery);
    },
  });
  // Every message is this topic's event; a push may wait for the relay's sweep (250 ms), so
  // messages are handed over in batches (one job for up to 100) rather than a job each, and
  // only customers' messages, with only the fields planning reads: the whole message and
  // ticket made each job tens of kilobytes to write, fetch and parse.
  relay.subscribe(inboxTopics.messageCreated, planPushJob, {
    immediate: false,
    batch: true,
    select: pushPlanningFields,
  });

  await queue.register({
    name: sendPushJob,
    retryLimit: 5,
    // Each is a call to a push service over the network.
    concurrency: 8,
    retryDelay: 2,
    retryBackoff: true,
    handler: async (data) => {
      const { clientId, subscriptionId, notification } = sendJob.parse(data);
      await push.deliver(clientId, { subscriptionId, notification });
    },
  });

  await queue.register({
    name: dropSessionPushJob,
    retryLimit: 5,
    concurrency: 2,
    handler: async (data) => {
      const { clientId, payload } = sessionRevokedJob.parse(data);
      await push.dropSession(clientId, payload.sessionId);
    },
  });
  relay.subscribe(eventTopics.sessionRevoked, dropSessionPushJob);
}
