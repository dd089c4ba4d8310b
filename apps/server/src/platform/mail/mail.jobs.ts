import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { OutboxRelay } from '../events/outbox-relay';
import type { JobQueue } from '../jobs/job-queue';
import { findMailUnscoped, noteMailFailure, settleMail } from './mail-outbox';
import { type MailService, mailQueuedTopic } from './mail-service';

const queuedJob = z.object({ payload: z.object({ mailId: z.string().uuid() }) });
const retryJob = z.object({ mailId: z.string().uuid(), attempt: z.number().int().min(2) });

/** Tries per message before it is marked FAILED with the last error. */
export const mailDeliveryAttempts = 5;

/** Seconds before try `attempt` (2, 3, ...): 10 s, 20 s, 40 s, ... */
export const mailRetryDelaySeconds = (attempt: number, baseSeconds: number) =>
  baseSeconds * 2 ** (attempt - 2);

/**
 * Delivery of queued mail. The job counts its own tries (the retry carries the attempt
 * number) so the row can say FAILED, with the reason, once the last try fails.
 */
export async function registerMailJobs(
  db: Database,
  queue: JobQueue,
  relay: OutboxRelay,
  mail: MailService,
  logger: FastifyBaseLogger,
  options: { retryBaseSeconds?: number } = {},
): Promise<void> {
  const retryBaseSeconds = options.retryBaseSeconds ?? 10;

  async function deliver(mailId: string, attempt: number): Promise<void> {
    const row = await findMailUnscoped(db, mailId);
    if (!row || row.status !== 'PENDING') return;
    if (!mail.canSend(row)) {
      await settleMail(db, mailId, { status: 'KEPT' });
      return;
    }
    try {
      await mail.send(row);
      await settleMail(db, mailId, { status: 'SENT' });
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      logger.warn({ mailId, attempt, reason }, 'mail delivery failed');
      if (attempt >= mailDeliveryAttempts) {
        await settleMail(db, mailId, { status: 'FAILED', error: reason });
        return;
      }
      await noteMailFailure(db, mailId, reason);
      await queue.send(
        'mail.retry',
        { mailId, attempt: attempt + 1 },
        { startAfter: mailRetryDelaySeconds(attempt + 1, retryBaseSeconds) },
      );
    }
  }

  await queue.register({
    name: 'mail.deliver',
    retryLimit: 0,
    concurrency: 4,
    handler: async (data) => deliver(queuedJob.parse(data).payload.mailId, 1),
  });
  await queue.register({
    name: 'mail.retry',
    retryLimit: 0,
    concurrency: 4,
    handler: async (data) => {
      const job = retryJob.parse(data);
      await deliver(job.mailId, job.attempt);
    },
  });
  relay.subscribe(mailQueuedTopic, 'mail.deliver');
}
