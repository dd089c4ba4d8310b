import {
  auditEventTopics,
  type ClientMembershipListResponse,
  clientMembershipErrorMessages,
  errorMessages,
  eventTopics,
  type SignInResponse,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { HttpError, notFound, unauthorized } from '../../platform/http/http-errors';
import type { AuthService, RequestOrigin } from './auth.service';
import { findPersonRowInClient, listEnterableClients, listPersonRows } from './client-membership.repository';
import { revokeUserSessions } from './session.repository';
import { credentialHolderId, findUser } from './user.repository';

/**
 * Ends every open session of every row of the person, each in its own client, announcing
 * each so its sockets close: a password changed or reset is the person's, in every client.
 */
export async function endPersonSessions(db: Database, holderId: string, reason: string): Promise<void> {
  for (const row of await listPersonRows(db, holderId)) {
    await withTenant(db, row.clientId, async (tx) => {
      for (const sessionId of await revokeUserSessions(tx, row.clientId, row.id, reason)) {
        await appendEvent(tx, {
          clientId: row.clientId,
          topic: eventTopics.sessionRevoked,
          rooms: [rooms.user(row.id)],
          payload: { sessionId, reason },
        });
      }
    });
  }
}

/**
 * Multi-client accounts (issue 14): which clients the signed-in person can enter, and
 * moving their session to another of them. A switch is a sign-in to the person's row in
 * the other client (through AuthService, so tokens, events and 2-step rules are the same)
 * followed by a sign-out of the session it leaves.
 */
export class ClientMembershipService {
  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
  ) {}

  /** The clients the caller's person can enter: live, active rows only; the caller's marked current. */
  async list(caller: AuthContext): Promise<ClientMembershipListResponse> {
    const holderId = await this.holderIdOf(caller);
    const rows = await listEnterableClients(this.db, holderId);
    return {
      content: rows.map(({ user, client }) => ({
        id: client.id,
        name: client.name,
        role: user.role,
        current: client.id === caller.clientId,
      })),
    };
  }

  /**
   * Opens a session for the caller's person in the client and ends the caller's session.
   * The person proved their 2-step code (if any) when they signed in, so it is not asked
   * again; a client that requires 2-step of a person without it answers the setup
   * challenge, as sign-in does, and the current session stays until that is done.
   */
  async switchClient(caller: AuthContext, clientId: string, origin: RequestOrigin): Promise<SignInResponse> {
    const holderId = await this.holderIdOf(caller);
    const target = await findPersonRowInClient(this.db, holderId, clientId);
    if (!target) throw notFound(clientMembershipErrorMessages.notMember);
    if (target.deletedAt !== null || target.status !== 'ACTIVE') {
      throw new HttpError(403, errorMessages.userInactive);
    }
    const next = await this.auth.continueSignIn(target, origin, { mfaProven: true });
    if (!next) throw notFound(clientMembershipErrorMessages.notMember);
    if (!('accessToken' in next)) return next;
    await withTenant(this.db, target.clientId, (tx) =>
      appendEvent(tx, {
        clientId: target.clientId,
        topic: auditEventTopics.clientSwitched,
        rooms: [],
        payload: { userId: target.id, fromClientId: caller.clientId, fromUserId: caller.userId },
      }),
    );
    await this.auth.logout(caller, 'client switched');
    return next;
  }

  /** The credential holder's id of the caller's row: what ties the person's rows together. */
  private async holderIdOf(caller: AuthContext): Promise<string> {
    const row = await withTenant(this.db, caller.clientId, (tx) =>
      findUser(tx, caller.clientId, caller.userId),
    );
    if (!row) throw unauthorized();
    return credentialHolderId(row);
  }
}
