import { appVersion, healthResponse } from '@app/contracts';
import type { DatabaseHandle } from '../../db/client';
import type { App } from '../../platform/http/app';
import type { JobQueue } from '../../platform/jobs/job-queue';

/** GET /api/health: whether the database and the job queue answer. */
export function registerHealthRoutes(app: App, database: DatabaseHandle, queue: JobQueue): void {
  app.get(
    '/api/health',
    {
      schema: { tags: ['platform'], response: { 200: healthResponse, 503: healthResponse } },
      config: { access: 'public' },
    },
    async (_request, reply) => {
      const databaseOk = await database
        .query('select 1 as ok')
        .then(() => true)
        .catch(() => false);
      const queueOk = await queue.healthy();
      const ok = databaseOk && queueOk;
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        version: appVersion,
        database: { ok: databaseOk, driver: database.driver },
        queue: { ok: queueOk },
      });
    },
  );
}
