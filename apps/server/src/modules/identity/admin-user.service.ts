import {
  type AdminUserBody,
  type AdminUserView,
  adminErrorMessages,
  adminUserRules,
  auditEventTopics,
  buildAbility,
  errorMessages,
  eventTopics,
  normalizeIndonesianPhone,
  passwordPolicy,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, forbidden, notFound } from '../../platform/http/http-errors';
import type { MailService } from '../../platform/mail/mail-service';
import {
  type AdminUserChanges,
  countActiveUsers,
  countOpenTicketsAssignedTo,
  findAgentGroupIds,
  findLiveUser,
  insertAdminUser,
  listAdminUsers,
  listAgentGroupIdsOf,
  replaceAgentGroupMemberships,
  updateAdminUser,
} from './admin-user.repository';
import { findPersonRowInClient } from './client-membership.repository';
import { findFeatureAccessGroupByName } from './feature-access.repository';
import { hashPassword } from './password-hasher';
import { revokeUserSessions } from './session.repository';
import { type ClientRow, findClient, findUserForSignIn, type UserRow } from './user.repository';

function present(user: UserRow, agentGroupIds: string[]): AdminUserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.status,
    agentStatus: user.agentStatus,
    csPosition: user.csPosition,
    featuresAccessName: user.featuresAccessName,
    agentGroupIds,
    csTags: user.csTags,
    phone: user.phone,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Checks the form's rules again with the same contract; the first failure is the answer. */
function checkRules(body: AdminUserBody, passwordRequired: boolean): void {
  const parsed = adminUserRules.safeParse(body);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? errorMessages.generic);
  if ((passwordRequired || body.password) && !passwordPolicy.safeParse(body.password ?? '').success) {
    throw badRequest(errorMessages.passwordFormat);
  }
}

/**
 * The password hash of a membership row: argon2 never verifies it, and sign-in never looks
 * at membership rows anyway; the person's password is the credential holder's.
 */
const membershipPasswordHash = '!';

/** The e-mail telling a person they were added to another client, Indonesian first then English. */
function addedToClientMail(client: ClientRow, recipient: string) {
  return {
    clientId: client.id,
    recipient,
    subject: `Anda ditambahkan ke ${client.name} / You were added to ${client.name}`,
    text: [
      `Anda ditambahkan sebagai pengguna ${client.name}. Masuk dengan e-mail dan kata sandi Anda yang biasa, lalu pilih ${client.name} di menu Ganti klien.`,
      '',
      `You were added as a user of ${client.name}. Sign in with your usual e-mail and password, then choose ${client.name} under Switch client.`,
    ].join('\n'),
  };
}

/** Tells the audit log (and anyone listening) who changed which user. */
function announceUserChange(
  tx: Executor,
  topic: string,
  caller: AuthContext,
  subject: { id: string; name: string },
): Promise<bigint> {
  return appendEvent(tx, {
    clientId: caller.clientId,
    topic,
    rooms: [],
    payload: { actorUserId: caller.userId, subjectId: subject.id, name: subject.name },
  });
}

/** Ends every session of the user; the hub closes their sockets on the event. */
async function endSessions(tx: Executor, clientId: string, userId: string, reason: string): Promise<void> {
  for (const sessionId of await revokeUserSessions(tx, clientId, userId, reason)) {
    await appendEvent(tx, {
      clientId,
      topic: eventTopics.sessionRevoked,
      rooms: [rooms.user(userId)],
      payload: { sessionId, reason },
    });
  }
}

/**
 * The client's users as the admin screen manages them (commerce §5, §6, §8): plan limit,
 * unique e-mail, CS position only for roles that reach the inbox, owners untouchable,
 * and a deleted or deactivated user signed out everywhere.
 */
export class AdminUserService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
  ) {}

  async list(caller: AuthContext, search?: string) {
    return withTenant(this.db, caller.clientId, async (tx) => {
      const client = await findClient(tx, caller.clientId);
      const rows = await listAdminUsers(tx, caller.clientId, search);
      const groups = await listAgentGroupIdsOf(
        tx,
        caller.clientId,
        rows.map((row) => row.id),
      );
      return {
        content: rows.map((row) => present(row, groups.get(row.id) ?? [])),
        total: rows.length,
        userLimit: client?.userLimit ?? 0,
      };
    });
  }

  /**
   * Adds a user. An e-mail that already signs in to another client is that person: they
   * get a membership row here (their password stays theirs, so the form's is ignored) and
   * an e-mail saying so. An e-mail already live in this client is taken.
   */
  async create(caller: AuthContext, body: AdminUserBody): Promise<AdminUserView> {
    const email = body.email.trim();
    // A live sign-in e-mail is unique across every client, so this look-up is deliberately
    // unscoped; a deleted user's e-mail may be given to someone new.
    const found = await findUserForSignIn(this.db, email);
    const person = found && found.deletedAt === null ? found : undefined;
    checkRules(person ? { ...body, password: undefined, confirmPassword: undefined } : body, !person);
    if (body.role === 'ADC' && caller.role !== 'OWN') throw forbidden(adminErrorMessages.onlyOwnerMakesAdmin);
    if (person?.clientId === caller.clientId) throw badRequest(adminErrorMessages.emailTaken);
    const passwordHash = person ? membershipPasswordHash : await hashPassword(body.password ?? '');
    return withTenant(this.db, caller.clientId, async (tx) => {
      const client = await findClient(tx, caller.clientId);
      if (!client) throw notFound();
      const member = person && (await findPersonRowInClient(tx, person.id, caller.clientId));
      if (member && member.deletedAt === null) throw badRequest(adminErrorMessages.emailTaken);
      if (body.status === 'ACTIVE' && (await countActiveUsers(tx, caller.clientId)) >= client.userLimit) {
        throw badRequest(adminErrorMessages.userLimitReached);
      }
      const access = await this.accessFields(tx, client, body);
      const groupIds = await this.agentGroups(tx, caller.clientId, body.agentGroupIds);
      const user = await insertAdminUser(tx, {
        clientId: caller.clientId,
        name: body.name.trim(),
        email: person?.email ?? email,
        passwordHash,
        sharedLoginUserId: person?.id ?? null,
        role: body.role,
        status: body.status,
        csTags: body.csTags,
        phone: body.phone ? normalizeIndonesianPhone(body.phone) : null,
        ...access,
      });
      await replaceAgentGroupMemberships(tx, caller.clientId, user.id, groupIds);
      await announceUserChange(tx, auditEventTopics.userCreated, caller, user);
      if (person) await this.mail.queue(tx, addedToClientMail(client, person.email));
      return present(user, groupIds);
    });
  }

  async update(caller: AuthContext, userId: string, body: AdminUserBody): Promise<AdminUserView> {
    checkRules(body, false);
    const holder = await findUserForSignIn(this.db, body.email.trim());
    const passwordHash = body.password ? await hashPassword(body.password) : undefined;
    return withTenant(this.db, caller.clientId, async (tx) => {
      const target = await findLiveUser(tx, caller.clientId, userId);
      const client = await findClient(tx, caller.clientId);
      if (!target || !client) throw notFound();
      // A membership row's e-mail and password are the person's, kept by their holder.
      const membership = target.sharedLoginUserId !== null;
      const email = membership ? target.email : body.email.trim();
      if (!membership && holder && holder.deletedAt === null && holder.id !== userId)
        throw badRequest(adminErrorMessages.emailTaken);
      if (target.role === 'OWN') throw forbidden(adminErrorMessages.ownerProtected);
      if ((body.role === 'ADC' || target.role === 'ADC') && caller.role !== 'OWN') {
        throw forbidden(adminErrorMessages.onlyOwnerMakesAdmin);
      }
      const activating = target.status !== 'ACTIVE' && body.status === 'ACTIVE';
      if (activating && (await countActiveUsers(tx, caller.clientId)) >= client.userLimit) {
        throw badRequest(adminErrorMessages.userLimitReached);
      }
      const access = await this.accessFields(tx, client, body);
      const groupIds = await this.agentGroups(tx, caller.clientId, body.agentGroupIds);
      const changes: AdminUserChanges = {
        name: body.name.trim(),
        email,
        role: body.role,
        status: body.status,
        csTags: body.csTags,
        ...(body.phone !== undefined
          ? { phone: body.phone ? normalizeIndonesianPhone(body.phone) : null }
          : {}),
        ...access,
        ...(passwordHash && !membership ? { passwordHash } : {}),
      };
      const saved = await updateAdminUser(tx, caller.clientId, userId, changes);
      if (!saved) throw notFound();
      await replaceAgentGroupMemberships(tx, caller.clientId, userId, groupIds);
      if (body.status === 'INACTIVE' && target.status === 'ACTIVE') {
        await endSessions(tx, caller.clientId, userId, 'user deactivated');
      }
      await announceUserChange(tx, auditEventTopics.userChanged, caller, saved);
      return present(saved, groupIds);
    });
  }

  /** Soft-deletes the user and ends their sessions; refused while chats wait on them. */
  async remove(caller: AuthContext, userId: string): Promise<void> {
    await withTenant(this.db, caller.clientId, async (tx) => {
      const target = await findLiveUser(tx, caller.clientId, userId);
      if (!target) throw notFound();
      if (target.role === 'OWN') throw forbidden(adminErrorMessages.ownerProtected);
      if (target.role === 'ADC' && caller.role !== 'OWN')
        throw forbidden(adminErrorMessages.onlyOwnerMakesAdmin);
      if ((await countOpenTicketsAssignedTo(tx, caller.clientId, userId)) > 0) {
        throw badRequest(adminErrorMessages.deleteUserHasTickets);
      }
      await updateAdminUser(tx, caller.clientId, userId, {
        deletedAt: new Date(),
        status: 'INACTIVE',
        agentStatus: 'OFFLINE',
      });
      await replaceAgentGroupMemberships(tx, caller.clientId, userId, []);
      await endSessions(tx, caller.clientId, userId, 'user deleted');
      await announceUserChange(tx, auditEventTopics.userDeleted, caller, target);
    });
  }

  /**
   * The user's group (a copy of its rights) and CS position: the position is required when
   * the role and group reach the inbox, and must be empty when they do not (commerce §5).
   */
  private async accessFields(tx: Executor, client: ClientRow, body: AdminUserBody) {
    const group = body.featuresAccessName
      ? await findFeatureAccessGroupByName(tx, client.id, body.featuresAccessName)
      : undefined;
    if (body.featuresAccessName && !group) throw badRequest(adminErrorMessages.featureAccessUnknown);
    const rights = {
      featuresAccessName: group?.name ?? null,
      permissionIndex: group?.permissionIndex ?? null,
      featuresPermissions: group?.featuresPermissions ?? [],
    };
    const ability = buildAbility({
      role: body.role,
      accountCountry: client.country,
      featuresAccessPermissions: group
        ? { userPermissionIndex: group.permissionIndex, clientPermissionIndex: client.permissionIndex }
        : null,
      featuresPermissions: rights.featuresPermissions,
    });
    const reachesInbox = ability.can('READ', 'CUSTOMER_SERVICE_INBOX');
    if (reachesInbox && !body.csPosition) throw badRequest(adminErrorMessages.csPositionRequired);
    if (!reachesInbox && body.csPosition) throw badRequest(adminErrorMessages.csPositionNotAllowed);
    return { ...rights, csPosition: body.csPosition };
  }

  private async agentGroups(tx: Executor, clientId: string, groupIds: string[]): Promise<string[]> {
    const unique = [...new Set(groupIds)];
    const found = await findAgentGroupIds(tx, clientId, unique);
    if (found.length !== unique.length) throw badRequest(adminErrorMessages.agentGroupUnknown);
    return unique;
  }
}
