import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { pushSubscriptions, sessions, users } from '../../db/schema';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Stores a browser's subscription for a session. The endpoint is unique per client: the
 * same browser subscribing again (another user, a new session, fresh keys) takes the row over
 * and revives it if it had expired.
 */
export async function upsertSubscription(
  db: Executor,
  values: Pick<
    PushSubscriptionRow,
    'clientId' | 'userId' | 'sessionId' | 'endpoint' | 'p256dh' | 'auth' | 'userAgent'
  >,
): Promise<PushSubscriptionRow> {
  const [row] = await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: [pushSubscriptions.clientId, pushSubscriptions.endpoint],
      set: {
        userId: values.userId,
        sessionId: values.sessionId,
        p256dh: values.p256dh,
        auth: values.auth,
        userAgent: values.userAgent,
        expiredAt: null,
      },
    })
    .returning();
  return row;
}

/** Removes every subscription a session registered (sign-out, or the user turned pushes off). */
export async function deleteSessionSubscriptions(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<number> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.clientId, clientId), eq(pushSubscriptions.sessionId, sessionId)))
    .returning({ id: pushSubscriptions.id });
  return removed.length;
}

/** Whether the session has a subscription that still receives pushes. */
export async function sessionHasLiveSubscription(
  db: Executor,
  clientId: string,
  sessionId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.clientId, clientId),
        eq(pushSubscriptions.sessionId, sessionId),
        isNull(pushSubscriptions.expiredAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Live subscriptions of the users, only of sessions still open: a session signed out or
 * revoked never gets another push, even before its rows are swept.
 */
export async function findLiveSubscriptionsOfUsers(
  db: Executor,
  clientId: string,
  userIds: string[],
): Promise<PushSubscriptionRow[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ subscription: pushSubscriptions })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(
      and(
        eq(pushSubscriptions.clientId, clientId),
        inArray(pushSubscriptions.userId, userIds),
        isNull(pushSubscriptions.expiredAt),
        isNull(sessions.revokedAt),
        sql`${sessions.expiresAt} > now()`,
      ),
    );
  return rows.map((row) => row.subscription);
}

export async function findSubscription(
  db: Executor,
  clientId: string,
  id: string,
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.clientId, clientId), eq(pushSubscriptions.id, id)));
  return row;
}

/** Records the push service's answer: delivered (last success) or gone (expired). */
export async function markSubscription(
  db: Executor,
  clientId: string,
  id: string,
  outcome: 'delivered' | 'gone',
): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set(outcome === 'delivered' ? { lastSuccessAt: new Date() } : { expiredAt: new Date() })
    .where(and(eq(pushSubscriptions.clientId, clientId), eq(pushSubscriptions.id, id)));
}

/**
 * Who is told about a chat nobody holds yet: the client's owners, admins and supervisors
 * (the people who watch the queue and hand chats out), active and not deleted.
 */
export async function findQueueWatchers(db: Executor, clientId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.clientId, clientId),
        eq(users.status, 'ACTIVE'),
        isNull(users.deletedAt),
        or(inArray(users.role, ['OWN', 'ADC']), inArray(users.csPosition, ['SUPERVISOR_1', 'SUPERVISOR_2'])),
      ),
    );
  return rows.map((row) => row.id);
}
