import type { AccountActivity, AccountActivityListResponse, DeleteAccountActivityBody } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { forbidden, notFound, unauthorized } from '../../platform/http/http-errors';
import { mayDeleteActivityOf, mayManageClientActivity } from './account-activity.policy';
import {
  type AccountActivityRow,
  deleteActivitiesByEmail,
  deleteEndedSessionActivities,
  findSessionActivity,
  insertActivity,
  listActivities,
  touchActivity,
} from './account-activity.repository';
import type { RequestOrigin } from './auth.service';
import { lockSession, sessionIsOpen } from './session.repository';
import { findUser } from './user.repository';

const present = (row: AccountActivityRow): AccountActivity => ({
  id: row.id,
  clientId: row.clientId,
  userId: row.userId,
  sessionId: row.sessionId,
  email: row.email,
  ip: row.ip,
  userAgent: row.userAgent,
  createdAt: row.createdAt.toISOString(),
  lastSeenAt: row.lastSeenAt.toISOString(),
});

/** The account-activity record of each signed-in session (core-inbox §7 Plus): one per session. */
export class AccountActivityService {
  constructor(private readonly db: Database) {}

  /** Records the caller's session; calling again updates the same record (idempotent per session). */
  async record(caller: AuthContext, origin: RequestOrigin): Promise<AccountActivity> {
    const row = await this.upsert(caller.clientId, caller.userId, caller.sessionId, caller.email, origin);
    if (!row) throw unauthorized();
    return present(row);
  }

  /**
   * Records a session that just signed in, from its stored origin. Run by a job, so it may
   * come late or twice; a session that has already ended gets no record.
   */
  async recordSignIn(clientId: string, userId: string, sessionId: string): Promise<void> {
    const user = await withTenant(this.db, clientId, (tx) => findUser(tx, clientId, userId));
    if (!user) return;
    await this.upsert(clientId, userId, sessionId, user.email, null);
  }

  /** The whole client's records for admins, the caller's own otherwise. */
  async list(caller: AuthContext): Promise<AccountActivityListResponse> {
    const userId = mayManageClientActivity(caller) ? undefined : caller.userId;
    const rows = await withTenant(this.db, caller.clientId, (tx) =>
      listActivities(tx, caller.clientId, userId),
    );
    return { content: rows.map(present) };
  }

  /** Deletes a user's records; another client's id is simply not found. */
  async delete(caller: AuthContext, body: DeleteAccountActivityBody): Promise<{ deleted: number }> {
    if (body.clientId !== caller.clientId) throw notFound();
    if (!mayDeleteActivityOf(caller, body.email)) throw forbidden();
    const deleted = await withTenant(this.db, caller.clientId, (tx) =>
      deleteActivitiesByEmail(tx, caller.clientId, body.email),
    );
    return { deleted };
  }

  /** Drops the records of sessions that ended without a sign-out; returns how many. */
  pruneEnded(now = new Date()): Promise<number> {
    return deleteEndedSessionActivities(this.db, now);
  }

  /**
   * The session row is locked first, so concurrent calls for one session (the sign-in job and
   * the web app's own post) make one record, and none is made for a session already ended.
   * A null origin keeps what the session stored at sign-in.
   */
  private upsert(
    clientId: string,
    userId: string,
    sessionId: string,
    email: string,
    origin: RequestOrigin | null,
  ): Promise<AccountActivityRow | undefined> {
    return withTenant(this.db, clientId, async (tx) => {
      const session = await lockSession(tx, clientId, sessionId);
      if (!session || session.userId !== userId || !sessionIsOpen(session)) return undefined;
      const where = {
        ip: origin?.ip ?? session.ip,
        userAgent: (origin?.userAgent ?? session.userAgent)?.slice(0, 300) ?? null,
      };
      const existing = await findSessionActivity(tx, clientId, sessionId);
      if (existing) return touchActivity(tx, clientId, existing.id, where);
      return insertActivity(tx, { clientId, userId, sessionId, email, ...where });
    });
  }
}
