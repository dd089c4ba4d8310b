import { and, count, desc, eq, gt, isNull, like, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { clients, mailOutbox, signupRequests, users } from '../../db/schema';

/*
 * Sign-up works before any client exists: signup_requests has row-level security on and no
 * policy, so every function here runs on the plain (owner) executor, never inside withTenant.
 */

export type SignupRequestRow = typeof signupRequests.$inferSelect;
export type NewSignupRequest = typeof signupRequests.$inferInsert;

export async function insertSignupRequest(db: Executor, row: NewSignupRequest): Promise<SignupRequestRow> {
  const [created] = await db.insert(signupRequests).values(row).returning();
  return created;
}

export async function findSignupRequest(db: Executor, id: string): Promise<SignupRequestRow | undefined> {
  const [row] = await db.select().from(signupRequests).where(eq(signupRequests.id, id));
  return row;
}

/** Codes sent to this e-mail since the time, for the hourly quota. */
export async function countSignupCodesSince(db: Executor, email: string, since: Date): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(signupRequests)
    .where(
      and(sql`lower(${signupRequests.email}) = ${email.toLowerCase()}`, gt(signupRequests.createdAt, since)),
    );
  return total;
}

/** Kills a request's code (a resend replaced it); false when it was already used or done. */
export async function retireSignupRequest(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(signupRequests)
    .set({ expiresAt: new Date() })
    .where(
      and(eq(signupRequests.id, id), isNull(signupRequests.verifiedAt), isNull(signupRequests.completedAt)),
    )
    .returning({ id: signupRequests.id });
  return rows.length === 1;
}

export async function recordSignupWrongAttempt(db: Executor, id: string): Promise<void> {
  await db
    .update(signupRequests)
    .set({ attempts: sql`${signupRequests.attempts} + 1` })
    .where(eq(signupRequests.id, id));
}

/** The right code, once: only an unverified request takes the continue token. */
export async function markSignupVerified(
  db: Executor,
  id: string,
  continueTokenHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await db
    .update(signupRequests)
    .set({ verifiedAt: new Date(), continueTokenHash, expiresAt })
    .where(and(eq(signupRequests.id, id), isNull(signupRequests.verifiedAt)))
    .returning({ id: signupRequests.id });
  return rows.length === 1;
}

/** Claims the request for completion; false when another call completed it first. */
export async function markSignupCompleted(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(signupRequests)
    .set({ completedAt: new Date() })
    .where(and(eq(signupRequests.id, id), isNull(signupRequests.completedAt)))
    .returning({ id: signupRequests.id });
  return rows.length === 1;
}

/** Whether a client already has this WhatsApp Business number. */
export async function wabaPhoneTaken(db: Executor, phone: string): Promise<boolean> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.wabaPhone, phone))
    .limit(1);
  return Boolean(row);
}

/** Slugs already taken by the base or its numbered followers (`toko`, `toko-2`, ...). */
export async function slugsLike(db: Executor, base: string): Promise<string[]> {
  const rows = await db
    .select({ slug: clients.slug })
    .from(clients)
    .where(or(eq(clients.slug, base), like(clients.slug, `${base}-%`)));
  return rows.map((row) => row.slug);
}

export async function insertSignupClient(
  db: Executor,
  row: typeof clients.$inferInsert,
): Promise<typeof clients.$inferSelect> {
  const [created] = await db.insert(clients).values(row).returning();
  return created;
}

export async function insertSignupOwner(
  db: Executor,
  row: typeof users.$inferInsert,
): Promise<typeof users.$inferSelect> {
  const [created] = await db.insert(users).values(row).returning();
  return created;
}

/** A sign-up code's e-mail: outbox mail with no client, which no owner's mailbox lists. */
export async function insertClientlessMail(
  db: Executor,
  mail: { recipient: string; subject: string; text: string },
): Promise<{ id: string }> {
  const [row] = await db
    .insert(mailOutbox)
    .values({ ...mail, clientId: null, channel: 'EMAIL', status: 'PENDING' })
    .returning({ id: mailOutbox.id });
  return row;
}

/** The development mailbox: the newest mail that has no client, optionally to one recipient. */
export async function listClientlessMail(db: Executor, recipient: string | undefined, limit: number) {
  return db
    .select()
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.clientId),
        recipient ? sql`lower(${mailOutbox.recipient}) = ${recipient.toLowerCase()}` : undefined,
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}
