import { eventTopics, type MeResponse, type UserSummary } from '@app/contracts';
import type { Database } from '../../db/client';
import { readInTenant, withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { notFound, unauthorized } from '../../platform/http/http-errors';
import { presentMe, presentUser } from './identity-claims';
import { findUser, findUserWithClient, listUsers, updateUser } from './user.repository';

/** Reads and changes users of the caller's own client, never another's. */
export class UserService {
  constructor(private readonly db: Database) {}

  async me(caller: AuthContext): Promise<MeResponse> {
    const found = await readInTenant(this.db, caller.clientId, (tx) =>
      findUserWithClient(tx, caller.clientId, caller.userId),
    );
    if (!found) throw unauthorized();
    // Counted when the token was issued: no look across tenants on every call.
    return presentMe(found.user, found.client, caller.claims.enableMultiClient);
  }

  async list(caller: AuthContext, page: { limit: number; offset: number }) {
    const { rows, total } = await readInTenant(this.db, caller.clientId, (tx) =>
      listUsers(tx, caller.clientId, page),
    );
    return { content: rows.map(presentUser), total };
  }

  /** One user of the caller's client; another client's user is simply not found. */
  async get(caller: AuthContext, userId: string): Promise<UserSummary> {
    const user = await readInTenant(this.db, caller.clientId, (tx) => findUser(tx, caller.clientId, userId));
    if (!user) throw notFound();
    return presentUser(user);
  }

  /** Agent availability (core-inbox §4): kept on the user and announced to the client room. */
  async setAgentStatus(
    caller: AuthContext,
    status: 'ONLINE' | 'OFFLINE',
  ): Promise<{ status: 'ONLINE' | 'OFFLINE' }> {
    await withTenant(this.db, caller.clientId, async (tx) => {
      await updateUser(tx, caller.clientId, caller.userId, { agentStatus: status });
      await appendEvent(tx, {
        clientId: caller.clientId,
        topic: eventTopics.agentStatusChanged,
        rooms: [rooms.client(caller.clientId)],
        payload: { userId: caller.userId, status },
      });
    });
    return { status };
  }
}
