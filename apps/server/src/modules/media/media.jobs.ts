import type { Database } from '../../db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { deleteStalePendingFiles } from './media.repository';

/** Upload links live 15 minutes; a row still pending after a day was abandoned. */
const abandonedAfterMs = 24 * 60 * 60 * 1000;

/** Media's jobs: forget upload links that were never used. */
export async function registerMediaJobs(db: Database, queue: JobQueue): Promise<void> {
  await queue.register({
    name: 'media.prune-pending-uploads',
    cron: '41 * * * *',
    retryLimit: 2,
    handler: async () => {
      await deleteStalePendingFiles(db, new Date(Date.now() - abandonedAfterMs));
    },
  });
}
