import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { JobQueue } from '../jobs/job-queue';

/**
 * Prunes realtime events older than the retention once they have been relayed; a client whose
 * cursor is older than what is kept is told to resync.
 */
export async function registerEventJobs(
  db: Database,
  queue: JobQueue,
  retentionHours: number,
): Promise<void> {
  await queue.register({
    name: 'platform.prune-events',
    cron: '7 * * * *',
    retryLimit: 2,
    handler: async () => {
      await db.execute(
        sql`delete from outbox_events
            where relayed_at is not null and created_at < now() - make_interval(hours => ${retentionHours})`,
      );
    },
  });
}
