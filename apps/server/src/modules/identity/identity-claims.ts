import { type AccessTokenClaims, buildAbility, type MeResponse, type UserSummary } from '@app/contracts';
import type { ClientRow, UserRow } from './user.repository';

/** The access token's claims for a user of a client in a session. */
export function claimsFor(user: UserRow, client: ClientRow, sessionId: string): AccessTokenClaims {
  return {
    uid: user.id,
    sid: sessionId,
    role: user.role,
    clientId: client.id,
    email: user.email,
    features: client.features,
    featuresAccessName: user.featuresAccessName,
    featuresAccessPermissions:
      user.permissionIndex === null
        ? null
        : { userPermissionIndex: user.permissionIndex, clientPermissionIndex: client.permissionIndex },
    featuresPermissions: user.featuresPermissions,
    accountCountry: client.country,
    region: client.region,
    account: { sellerId: client.sellerId },
    sub: { clientTimezone: client.timezone },
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
    createdAt: user.createdAt.toISOString(),
  };
}

/** users/me: the user, their client and what they may do. */
export function presentMe(user: UserRow, client: ClientRow): MeResponse {
  const claims = claimsFor(user, client, '00000000-0000-0000-0000-000000000000');
  const ability = buildAbility({
    role: user.role,
    accountCountry: client.country,
    featuresAccessPermissions: claims.featuresAccessPermissions,
    featuresPermissions: claims.featuresPermissions,
  });
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
    features: claims.features,
    featuresAccessName: claims.featuresAccessName,
    featuresAccessPermissions: claims.featuresAccessPermissions,
    featuresPermissions: claims.featuresPermissions,
    permissions: ability.rules.map((rule) => ({
      action: String(rule.action),
      subject: String(rule.subject),
      inverted: Boolean(rule.inverted),
    })),
  };
}
