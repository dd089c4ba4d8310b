import { type AccessTokenClaims, buildAbility, type MeResponse, type UserSummary } from '@app/contracts';
import type { ClientRow, UserRow } from './user.repository';

/** What decides a user's access: their role, group and client (core-inbox §6). */
function accessOf(user: UserRow, client: ClientRow) {
  return {
    role: user.role,
    features: client.features,
    featuresAccessName: user.featuresAccessName,
    featuresAccessPermissions:
      user.permissionIndex === null
        ? null
        : { userPermissionIndex: user.permissionIndex, clientPermissionIndex: client.permissionIndex },
    featuresPermissions: user.featuresPermissions,
    accountCountry: client.country,
  };
}

/** The access token's claims for a user of a client in a session. */
export function claimsFor(
  user: UserRow,
  client: ClientRow,
  sessionId: string,
  enableMultiClient: boolean,
): AccessTokenClaims {
  return {
    ...accessOf(user, client),
    uid: user.id,
    sid: sessionId,
    clientId: client.id,
    email: user.email,
    region: client.region,
    account: { sellerId: client.sellerId },
    sub: { clientTimezone: client.timezone },
    csPosition: user.csPosition,
    enableMultiClient,
  };
}

export function presentUser(user: UserRow): UserSummary {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.status,
    agentStatus: user.agentStatus,
    csPosition: user.csPosition,
    createdAt: user.createdAt.toISOString(),
  };
}

/** users/me: the user, their client, what they may do, and whether they can switch clients. */
export function presentMe(user: UserRow, client: ClientRow, enableMultiClient = false): MeResponse {
  const access = accessOf(user, client);
  const ability = buildAbility(access);
  return {
    user: presentUser(user),
    client: {
      id: client.id,
      name: client.name,
      country: client.country,
      timezone: client.timezone,
      region: client.region,
      sellerId: client.sellerId,
    },
    features: access.features,
    featuresAccessName: access.featuresAccessName,
    featuresAccessPermissions: access.featuresAccessPermissions,
    featuresPermissions: access.featuresPermissions,
    permissions: ability.rules.map((rule) => ({
      action: String(rule.action),
      subject: String(rule.subject),
      inverted: Boolean(rule.inverted),
    })),
    consentAgreedAt: user.consentAgreedAt?.toISOString() ?? null,
    consentTimestamp: user.consentTimestamp?.toISOString() ?? null,
    enableMultiClient,
  };
}
