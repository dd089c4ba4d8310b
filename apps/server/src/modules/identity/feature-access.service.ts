import {
  adminErrorMessages,
  auditEventTopics,
  bitString,
  type FeatureAccessGroupBody,
  type FeatureAccessGroupView,
  type FeaturePermission,
  featureAccessMenus,
  featureAccessName,
  hasBit,
  type PermissionName,
  permissionBitRules,
} from '@app/contracts';
import type { Database, Transaction } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, notFound } from '../../platform/http/http-errors';
import {
  applyGroupToUsers,
  countUsersByGroupName,
  type FeatureAccessGroupRow,
  findFeatureAccessGroup,
  findFeatureAccessGroupByName,
  insertFeatureAccessGroup,
  listFeatureAccessGroups,
  updateFeatureAccessGroup,
} from './feature-access.repository';

/** Tells the audit log (and anyone listening) who changed which role. */
function announceRoleChange(
  tx: Transaction,
  topic: string,
  caller: AuthContext,
  group: { id: string; name: string },
): Promise<bigint> {
  return appendEvent(tx, {
    clientId: caller.clientId,
    topic,
    rooms: [],
    payload: { actorUserId: caller.userId, subjectId: group.id, name: group.name },
  });
}

/** The rights a group grants: the bit string of its indexed menus, and VIEW_FEATURE as a grant. */
export function rightsOfMenus(menus: ReadonlyArray<PermissionName>): {
  permissionIndex: string;
  featuresPermissions: FeaturePermission[];
} {
  const chosen = new Set(menus);
  return {
    permissionIndex: bitString(
      permissionBitRules.filter((rule) => chosen.has(rule.subject)).map((rule) => rule.index),
    ),
    featuresPermissions: chosen.has('VIEW_FEATURE') ? [{ name: 'VIEW_FEATURE', actions: ['READ'] }] : [],
  };
}

/** The menus a stored group opens, read back from its rights. */
export function menusOf(
  group: Pick<FeatureAccessGroupRow, 'permissionIndex' | 'featuresPermissions'>,
): PermissionName[] {
  const menus = permissionBitRules
    .filter((rule) => hasBit(group.permissionIndex, rule.index))
    .map((rule) => rule.subject);
  if (group.featuresPermissions.some((grant) => grant.name === 'VIEW_FEATURE')) menus.push('VIEW_FEATURE');
  return menus;
}

function present(group: FeatureAccessGroupRow, userCounts: Map<string, number>): FeatureAccessGroupView {
  const menus = menusOf(group);
  return {
    id: group.id,
    name: group.name,
    menus,
    allMenus: featureAccessMenus.every((menu) => menus.includes(menu)),
    permissionIndex: group.permissionIndex,
    userCount: group.deletedAt ? 0 : (userCounts.get(group.name.toLowerCase()) ?? 0),
    createdAt: group.createdAt.toISOString(),
    deletedAt: group.deletedAt?.toISOString() ?? null,
  };
}

/** The name checked with the form's own rule, so the server answers the same text. */
function validName(name: string): string {
  const parsed = featureAccessName.safeParse(name);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? adminErrorMessages.nameRequired);
  return parsed.data;
}

/**
 * Feature-access groups (custom roles, core-inbox §6). Users hold a group by name with a copy
 * of its rights, so saving a group rewrites its users; their access tokens carry the new
 * rights from their next refresh (within the access-token lifetime).
 */
export class FeatureAccessService {
  constructor(private readonly db: Database) {}

  async list(caller: AuthContext, deleted: boolean): Promise<FeatureAccessGroupView[]> {
    return withTenant(this.db, caller.clientId, async (tx) => {
      const groups = await listFeatureAccessGroups(tx, caller.clientId, deleted);
      const counts = await countUsersByGroupName(tx, caller.clientId);
      return groups.map((group) => present(group, counts));
    });
  }

  async detail(caller: AuthContext, name: string): Promise<FeatureAccessGroupView> {
    return withTenant(this.db, caller.clientId, async (tx) => {
      const group = await findFeatureAccessGroupByName(tx, caller.clientId, name);
      if (!group) throw notFound();
      return present(group, await countUsersByGroupName(tx, caller.clientId));
    });
  }

  async create(caller: AuthContext, body: FeatureAccessGroupBody): Promise<FeatureAccessGroupView> {
    const name = validName(body.name);
    const rights = rightsOfMenus(body.allMenus ? featureAccessMenus : body.menus);
    return withTenant(this.db, caller.clientId, async (tx) => {
      if (await findFeatureAccessGroupByName(tx, caller.clientId, name)) {
        throw badRequest(adminErrorMessages.featureAccessNameTaken);
      }
      const group = await insertFeatureAccessGroup(tx, { clientId: caller.clientId, name, ...rights });
      await announceRoleChange(tx, auditEventTopics.roleCreated, caller, group);
      return present(group, new Map());
    });
  }

  /** Renames or changes a group, and hands the change to every user carrying it. */
  async update(
    caller: AuthContext,
    id: string,
    body: FeatureAccessGroupBody,
  ): Promise<FeatureAccessGroupView> {
    const name = validName(body.name);
    const rights = rightsOfMenus(body.allMenus ? featureAccessMenus : body.menus);
    return withTenant(this.db, caller.clientId, async (tx) => {
      const group = await findFeatureAccessGroup(tx, caller.clientId, id);
      if (!group) throw notFound();
      const sameName = await findFeatureAccessGroupByName(tx, caller.clientId, name);
      if (sameName && sameName.id !== group.id) throw badRequest(adminErrorMessages.featureAccessNameTaken);
      const saved = await updateFeatureAccessGroup(tx, caller.clientId, id, { name, ...rights });
      if (!saved) throw notFound();
      await applyGroupToUsers(tx, caller.clientId, group.name, saved);
      await announceRoleChange(tx, auditEventTopics.roleChanged, caller, saved);
      return present(saved, await countUsersByGroupName(tx, caller.clientId));
    });
  }

  /** Removes a group no user carries (core-inbox §6); a group in use is refused. */
  async remove(caller: AuthContext, id: string): Promise<void> {
    await withTenant(this.db, caller.clientId, async (tx) => {
      const group = await findFeatureAccessGroup(tx, caller.clientId, id);
      if (!group) throw notFound();
      const counts = await countUsersByGroupName(tx, caller.clientId);
      if ((counts.get(group.name.toLowerCase()) ?? 0) > 0)
        throw badRequest(adminErrorMessages.featureAccessInUse);
      await updateFeatureAccessGroup(tx, caller.clientId, id, { deletedAt: new Date() });
      await announceRoleChange(tx, auditEventTopics.roleDeleted, caller, group);
    });
  }
}
