import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export type MailRow = typeof mailOutbox.$inferSelect;
export type MailChannel = MailRow['channel'];

/** A message as a service hands it over; html is optional, text is always kept. */
export interface NewMail {
  clientId: string;
  channel?: MailChannel;
  recipient: string;
  subject: string;
  text: string;
  html?: string;
}

/** The outbox's SQL: the platform's own table, like outbox_events. */
export async function insertMail(tx: Executor, mail: NewMail): Promise<MailRow> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({ ...mail, channel: mail.channel ?? 'EMAIL', status: 'PENDING' })
    .returning();
  return row;
}

/** A row by id across clients: the delivery job runs outside any tenant. */
export async function findMailUnscoped(db: Executor, mailId: string): Promise<MailRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
  return row;
}

/** Moves a still-pending row to its final state; false when another worker got there first. */
export async function settleMail(
  db: Executor,
  mailId: string,
  outcome: { status: 'SENT' | 'KEPT' | 'FAILED'; error?: string | null },
): Promise<boolean> {
  const rows = await db
    .update(mailOutbox)
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      sentAt: outcome.status === 'SENT' ? new Date() : null,
    })
    .where(and(eq(mailOutbox.id, mailId), eq(mailOutbox.status, 'PENDING')))
    .returning({ id: mailOutbox.id });
  return rows.length === 1;
}

/** Keeps the last failure on a row that will be tried again. */
export async function noteMailFailure(db: Executor, mailId: string, error: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ error })
    .where(and(eq(mailOutbox.id, mailId), eq(mailOutbox.status, 'PENDING')));
}

/** One client's outbox, newest first. */
export async function listClientMail(
  db: Executor,
  clientId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: MailRow[]; total: number }> {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.clientId, clientId))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(mailOutbox)
    .where(eq(mailOutbox.clientId, clientId));
  return { rows, total };
}
