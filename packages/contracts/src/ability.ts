import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';
import {
  type Action,
  adminNegativeList,
  advancedSearchClientIndex,
  indonesiaOnlyPermissions,
  type PermissionName,
  permissionBitRules,
  type Role,
  type Subject,
} from './permissions';

export type AppAbility = MongoAbility<[Action, Subject]>;

/** Feature-access bit strings: '1' at an index grants that rule. */
export interface FeatureAccessPermissions {
  userPermissionIndex: string;
  clientPermissionIndex: string;
}

/** A grant carried by the user's feature-access group on top of the role. */
export interface FeaturePermission {
  name: PermissionName;
  actions: Array<Exclude<Action, 'manage'>>;
}

/** Everything the ability is built from; all of it travels in the access token. */
export interface AbilityInput {
  role: Role;
  accountCountry?: string | null;
  featuresAccessPermissions?: FeatureAccessPermissions | null;
  featuresPermissions?: FeaturePermission[] | null;
}

/** True when the bit string has '1' at the index; a short string means '0'. */
export function hasBit(bits: string | null | undefined, index: number): boolean {
  return typeof bits === 'string' && bits.charAt(index) === '1';
}

/** Builds a bit string of the given length with '1' at each listed index. */
export function bitString(indexes: number[], length = 32): string {
  const bits = Array.from({ length }, () => '0');
  for (const index of indexes) bits[index] = '1';
  return bits.join('');
}

/**
 * The one ability of core-inbox §6, used by the server (enforced) and by the web app
 * (guards and hidden actions).
 * - OWN may do everything; ADC everything minus the negative list; USC inbox, history
 *   and transaction-create; SAD has no rules in the spec, so it gets none (least privilege).
 * - When feature-access bit strings exist they decide each indexed rule: granted when the
 *   user's and the client's bits are both set, withdrawn otherwise (OWN is never narrowed).
 * - Advanced search is read-only and needs client bit 29, for every role.
 * - Accounts outside Indonesia lose the Indonesia-only permissions.
 */
export function buildAbility(input: AbilityInput): AppAbility {
  const { can, cannot, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  const country = (input.accountCountry ?? 'ID').toUpperCase();
  const access = input.featuresAccessPermissions ?? null;

  switch (input.role) {
    case 'OWN':
      can('manage', 'all');
      break;
    case 'ADC':
      can('manage', 'all');
      for (const name of adminNegativeList) cannot('manage', name);
      break;
    case 'USC':
      can('manage', 'CUSTOMER_SERVICE_INBOX');
      can('READ', 'CUSTOMER_SERVICE_HISTORY');
      can('CREATE', 'TRANSACTION');
      break;
    case 'SAD':
      break;
  }

  for (const grant of input.featuresPermissions ?? []) {
    for (const action of grant.actions) can(action, grant.name);
  }

  if (access && input.role !== 'OWN') {
    for (const rule of permissionBitRules) {
      const granted =
        hasBit(access.userPermissionIndex, rule.index) && hasBit(access.clientPermissionIndex, rule.index);
      for (const action of rule.actions) {
        if (granted) can(action, rule.subject);
        else cannot(action, rule.subject);
      }
    }
  }

  cannot(['CREATE', 'UPDATE', 'DELETE'], 'ADVANCE_SEARCH');
  if (!hasBit(access?.clientPermissionIndex, advancedSearchClientIndex)) cannot('READ', 'ADVANCE_SEARCH');

  if (country !== 'ID') {
    for (const name of indonesiaOnlyPermissions) cannot('manage', name);
  }
  return build();
}

/** Reads access: the check every route does (core-inbox §6). */
export function canRead(ability: AppAbility, permission: PermissionName | null | undefined): boolean {
  return permission == null || ability.can('READ', permission);
}
