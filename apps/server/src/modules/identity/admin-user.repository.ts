import { and, asc, count, eq, ilike, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { agentGroupMembers, agentGroups, ticketActivity, users } from '../../db/schema';
import type { UserRow } from './user.repository';

/** The columns an admin may set on a user of their client. */
export type AdminUserChanges = Partial<
  Pick<
    UserRow,
    | 'name'
    | 'email'
    | 'passwordHash'
    | 'role'
    | 'csPosition'
    | 'featuresAccessName'
    | 'permissionIndex'
    | 'featuresPermissions'
    | 'csTags'
    | 'phone'
    | 'status'
    | 'deletedAt'
    | 'agentStatus'
  >
>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);

/** Users of the client that are not deleted, optionally matching a name or e-mail search. */
export async function listAdminUsers(db: Executor, clientId: string, search?: string): Promise<UserRow[]> {
  const term = search?.trim();
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.clientId, clientId),
        isNull(users.deletedAt),
        term
          ? or(ilike(users.name, `%${escapeLike(term)}%`), ilike(users.email, `%${escapeLike(term)}%`))
          : undefined,
      ),
    )
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** A user of the client that is not deleted. */
export async function findLiveUser(
  db: Executor,
  clientId: string,
  userId: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.id, userId), isNull(users.deletedAt)));
  return row;
}

/** Active, not deleted users: what the plan's user limit counts. */
export async function countActiveUsers(db: Executor, clientId: string): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.status, 'ACTIVE'), isNull(users.deletedAt)));
  return total;
}

export async function insertAdminUser(
  db: Executor,
  values: AdminUserChanges &
    Pick<UserRow, 'clientId' | 'name' | 'email' | 'passwordHash' | 'role'> &
    Partial<Pick<UserRow, 'sharedLoginUserId'>>,
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

export async function updateAdminUser(
  db: Executor,
  clientId: string,
  userId: string,
  changes: AdminUserChanges,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)))
    .returning();
  return row;
}

/** Chats still waiting on the user: unassigned or assigned tickets with them as assignee (read only). */
export async function countOpenTicketsAssignedTo(
  db: Executor,
  clientId: string,
  userId: string,
): Promise<number> {
  // ticket_activity's assignee index holds the user's tickets (migration 0034).
  const [{ total }] = await db
    .select({ total: count() })
    .from(ticketActivity)
    .where(
      and(
        eq(ticketActivity.clientId, clientId),
        eq(ticketActivity.assigneeId, userId),
        inArray(ticketActivity.status, ['UNASSIGNED', 'ASSIGNED']),
      ),
    );
  return total;
}

/** Agent-group ids of each listed user. */
export async function listAgentGroupIdsOf(
  db: Executor,
  clientId: string,
  userIds: string[],
): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: agentGroupMembers.userId, groupId: agentGroupMembers.groupId })
    .from(agentGroupMembers)
    .where(and(eq(agentGroupMembers.clientId, clientId), inArray(agentGroupMembers.userId, userIds)));
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.groupId]);
  return byUser;
}

/** Of the given ids, those naming live agent groups of the client. */
export async function findAgentGroupIds(
  db: Executor,
  clientId: string,
  groupIds: string[],
): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .select({ id: agentGroups.id })
    .from(agentGroups)
    .where(
      and(
        eq(agentGroups.clientId, clientId),
        inArray(agentGroups.id, groupIds),
        isNull(agentGroups.deletedAt),
      ),
    );
  return rows.map((row) => row.id);
}

/** Makes the user a member of exactly these agent groups. */
export async function replaceAgentGroupMemberships(
  db: Executor,
  clientId: string,
  userId: string,
  groupIds: string[],
): Promise<void> {
  await db
    .delete(agentGroupMembers)
    .where(and(eq(agentGroupMembers.clientId, clientId), eq(agentGroupMembers.userId, userId)));
  if (groupIds.length === 0) return;
  await db
    .insert(agentGroupMembers)
    .values(groupIds.map((groupId) => ({ clientId, groupId, userId })))
    .onConflictDoNothing();
}
