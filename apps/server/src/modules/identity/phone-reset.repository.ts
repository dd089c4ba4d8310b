import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { users } from '../../db/schema';
import type { UserRow } from './user.repository';

/** The purpose of codes sent by reset by phone; the code rows themselves go through password-reset.repository. */
export const phoneResetPurpose = 'PASSWORD_RESET_PHONE';

/**
 * The active user who keeps the (normalised) number, across clients: the caller is not
 * signed in yet. The oldest account wins when two clients share a number, so the answer
 * is stable between the request and the validate step.
 */
export async function findActiveUserByPhoneUnscoped(
  db: Executor,
  phone: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.phone, phone),
        eq(users.status, 'ACTIVE'),
        isNull(users.deletedAt),
        // Credentials are the holder's; a membership row's number leads to nothing.
        isNull(users.sharedLoginUserId),
      ),
    )
    .orderBy(asc(users.createdAt))
    .limit(1);
  return row;
}
