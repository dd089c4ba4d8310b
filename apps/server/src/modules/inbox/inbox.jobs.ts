import { deliveryRequestedPayload, inboxTopics } from '@app/contracts';
import { z } from 'zod';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { MessageDeliveryService } from './message-delivery.service';

export const deliverMessageJob = 'inbox.deliver-message';

/** The relay's event shape; a retry sends the same shape with the next attempt. */
const deliveryJobData = z.object({ clientId: z.string().uuid(), payload: deliveryRequestedPayload });

/** Seconds before attempt n+1: 2, 4, 8, 16, or longer when the provider asked for longer (429). */
const backoffSeconds = (attempt: number) => 2 ** attempt;

/**
 * The inbox's jobs. Delivery counts its own attempts in the job data, because a handler
 * cannot see pg-boss's retry count and must know which attempt is the last one, to mark
 * the message FAILED with the provider's reason instead of leaving it pending. pg-boss's
 * own retries remain for the unexpected (the database went away mid-job).
 */
export async function registerInboxJobs(
  queue: JobQueue,
  relay: OutboxRelay,
  delivery: MessageDeliveryService,
): Promise<void> {
  await queue.register({
    name: deliverMessageJob,
    retryLimit: 3,
    retryDelay: 2,
    retryBackoff: true,
    // A provider call can take a few hundred milliseconds: chats are sent to at once, each
    // chat's messages one after another in the order they were written.
    concurrency: 8,
    orderKey: (data) => {
      const read = deliveryJobData.safeParse(data);
      return read.success ? `${read.data.clientId}:${read.data.payload.ticketId}` : undefined;
    },
    handler: async (data) => {
      const { clientId, payload } = deliveryJobData.parse(data);
      const outcome = await delivery.deliver(clientId, payload.messageId, payload.attempt);
      if (outcome !== 'done') {
        await queue.send(
          deliverMessageJob,
          { clientId, payload: { ...payload, attempt: payload.attempt + 1 } },
          { startAfter: Math.max(backoffSeconds(payload.attempt), outcome.notBeforeSeconds ?? 0) },
        );
      }
    },
  });
  relay.subscribe(inboxTopics.deliveryRequested, deliverMessageJob);
}
