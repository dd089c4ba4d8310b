import { eventTopics } from '@app/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { OutboxRelay } from '../../platform/events/outbox-relay';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { deleteStaleSessions } from './session.repository';
import { updateUser } from './user.repository';

const signedInJob = z.object({
  clientId: z.string().uuid(),
  payload: z.object({ userId: z.string().uuid(), sessionId: z.string().uuid() }),
});

/** Identity's jobs: remember each user's last sign-in; prune sessions long expired. */
export async function registerIdentityJobs(db: Database, queue: JobQueue, relay: OutboxRelay): Promise<void> {
  await queue.register({
    name: 'identity.record-sign-in',
    retryLimit: 5,
    concurrency: 4,
    handler: async (data) => {
      const { clientId, payload } = signedInJob.parse(data);
      await withTenant(db, clientId, (tx) =>
        updateUser(tx, clientId, payload.userId, { lastSignInAt: new Date() }),
      );
    },
  });
  relay.subscribe(eventTopics.userSignedIn, 'identity.record-sign-in');

  await queue.register({
    name: 'identity.prune-sessions',
    cron: '17 3 * * *',
    retryLimit: 2,
    handler: async () => {
      await deleteStaleSessions(db, new Date(Date.now() - 7 * 86_400_000));
    },
  });
}
