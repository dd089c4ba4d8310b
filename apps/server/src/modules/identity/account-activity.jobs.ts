import { eventTopics } from '@app/contracts';
import { z } from 'zod';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { AccountActivityService } from './account-activity.service';

const signedInJob = z.object({
  clientId: z.string().uuid(),
  payload: z.object({ userId: z.string().uuid(), sessionId: z.string().uuid() }),
});

/**
 * Every sign-in gets its account-activity record, after the sign-in commits; records of
 * sessions that ended without a sign-out are swept hourly.
 */
export async function registerAccountActivityJobs(
  activity: AccountActivityService,
  queue: JobQueue,
  relay: OutboxRelay,
): Promise<void> {
  await queue.register({
    name: 'identity.record-account-activity',
    retryLimit: 5,
    concurrency: 4,
    handler: async (data) => {
      const { clientId, payload } = signedInJob.parse(data);
      await activity.recordSignIn(clientId, payload.userId, payload.sessionId);
    },
  });
  relay.subscribe(eventTopics.userSignedIn, 'identity.record-account-activity');

  await queue.register({
    name: 'identity.prune-account-activity',
    cron: '23 * * * *',
    retryLimit: 2,
    handler: async () => {
      await activity.pruneEnded();
    },
  });
}
