import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { agentGroupMembers, agentGroups } from '../../db/schema';

export type AgentGroupRow = typeof agentGroups.$inferSelect;

/** The client's groups with their members' user ids, the default first. */
export async function listGroups(
  db: Executor,
  clientId: string,
): Promise<Array<AgentGroupRow & { memberIds: string[] }>> {
  const groups = await db
    .select()
    .from(agentGroups)
    .where(and(eq(agentGroups.clientId, clientId), isNull(agentGroups.deletedAt)))
    .orderBy(desc(agentGroups.isDefault), asc(agentGroups.name));
  const members = await db
    .select({ groupId: agentGroupMembers.groupId, userId: agentGroupMembers.userId })
    .from(agentGroupMembers)
    .where(eq(agentGroupMembers.clientId, clientId));
  return groups.map((group) => ({
    ...group,
    memberIds: members.filter((member) => member.groupId === group.id).map((member) => member.userId),
  }));
}

/** A live group of the client. */
export async function findGroup(
  db: Executor,
  clientId: string,
  groupId: string,
): Promise<AgentGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(agentGroups)
    .where(
      and(eq(agentGroups.clientId, clientId), eq(agentGroups.id, groupId), isNull(agentGroups.deletedAt)),
    );
  return row;
}
