import { auditEventTopics, auditSubjectPayload, auditTypes, eventTopics } from '@app/contracts';
import { z } from 'zod';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { AuditService } from './audit.service';

const relayedEvent = z.object({
  eventId: z.string(),
  clientId: z.string().uuid(),
  topic: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
const userPayload = z.object({ userId: z.string().uuid() }).passthrough();

/** Which audit type each topic becomes. */
const typeOfTopic: Record<string, string> = {
  [eventTopics.userSignedIn]: auditTypes.signIn,
  [eventTopics.passwordChanged]: auditTypes.passwordChanged,
  [auditEventTopics.userCreated]: auditTypes.userCreated,
  [auditEventTopics.userChanged]: auditTypes.userChanged,
  [auditEventTopics.userDeleted]: auditTypes.userDeleted,
  [auditEventTopics.roleCreated]: auditTypes.roleCreated,
  [auditEventTopics.roleChanged]: auditTypes.roleChanged,
  [auditEventTopics.roleDeleted]: auditTypes.roleDeleted,
  [auditEventTopics.clientSwitched]: auditTypes.clientSwitched,
};

/**
 * Sign-ins, password changes and user and role changes reach the audit log through the
 * outbox, after their transaction commits, so the audit never slows or fails them.
 */
export async function registerAuditJobs(
  audit: AuditService,
  queue: JobQueue,
  relay: OutboxRelay,
): Promise<void> {
  await queue.register({
    name: 'audit.record-event',
    retryLimit: 5,
    concurrency: 4,
    handler: async (data) => {
      const event = relayedEvent.parse(data);
      const type = typeOfTopic[event.topic];
      if (!type) return;
      const subject = auditSubjectPayload.safeParse(event.payload);
      // Sign-in and password change name the user themself; the rest name who acted.
      const userId = subject.success ? subject.data.actorUserId : userPayload.parse(event.payload).userId;
      await audit.record({
        clientId: event.clientId,
        userId,
        type,
        event: { ...event.payload, outboxEventId: event.eventId },
        result: 'SUCCESS',
      });
    },
  });
  for (const topic of Object.keys(typeOfTopic)) relay.subscribe(topic, 'audit.record-event');
}
