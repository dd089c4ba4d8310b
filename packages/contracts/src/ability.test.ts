import { describe, expect, it } from 'vitest';
import { bitString, buildAbility, canRead, hasBit } from './ability';
import { matchRoute, routeTable } from './routes';

describe('bit strings', () => {
  it('reads set and unset indexes, and treats a short string as unset', () => {
    const bits = bitString([0, 2, 29]);
    expect(bits).toHaveLength(32);
    expect(hasBit(bits, 0)).toBe(true);
    expect(hasBit(bits, 1)).toBe(false);
    expect(hasBit(bits, 29)).toBe(true);
    expect(hasBit('1', 5)).toBe(false);
    expect(hasBit(null, 0)).toBe(false);
  });
});

describe('ability by role', () => {
  it('lets OWN do everything except advanced search without client bit 29', () => {
    const ability = buildAbility({ role: 'OWN' });
    expect(ability.can('READ', 'SETTING_ADMIN')).toBe(true);
    expect(ability.can('DELETE', 'CONTACT')).toBe(true);
    expect(ability.can('READ', 'ADVANCE_SEARCH')).toBe(false);
  });

  it('gives ADC everything (the negative list is empty)', () => {
    const ability = buildAbility({ role: 'ADC' });
    expect(ability.can('READ', 'SETTING_ADMIN')).toBe(true);
    expect(ability.can('UPDATE', 'WHATSAPP_TEMPLATE')).toBe(true);
  });

  it('limits USC to inbox, history and transaction-create', () => {
    const ability = buildAbility({ role: 'USC' });
    expect(ability.can('READ', 'CUSTOMER_SERVICE_INBOX')).toBe(true);
    expect(ability.can('UPDATE', 'CUSTOMER_SERVICE_INBOX')).toBe(true);
    expect(ability.can('READ', 'CUSTOMER_SERVICE_HISTORY')).toBe(true);
    expect(ability.can('UPDATE', 'CUSTOMER_SERVICE_HISTORY')).toBe(false);
    expect(ability.can('CREATE', 'TRANSACTION')).toBe(true);
    expect(ability.can('READ', 'TRANSACTION')).toBe(false);
    expect(ability.can('READ', 'SETTING_ADMIN')).toBe(false);
    expect(ability.can('READ', 'SETTING_ACCOUNT')).toBe(false);
  });

  it('gives SAD nothing, since the spec shows no rules for it', () => {
    const ability = buildAbility({ role: 'SAD' });
    expect(ability.can('READ', 'CUSTOMER_SERVICE_INBOX')).toBe(false);
  });
});

describe('ability with feature-access bit strings', () => {
  it('grants an indexed rule only when the user bit and the client bit are both set', () => {
    const ability = buildAbility({
      role: 'USC',
      featuresAccessPermissions: {
        userPermissionIndex: bitString([0, 10, 15]),
        clientPermissionIndex: bitString([0, 10]),
      },
    });
    expect(ability.can('UPDATE', 'CUSTOMER_SERVICE_SETTING')).toBe(true);
    expect(ability.can('READ', 'CS_PERFORMANCE')).toBe(true);
    expect(ability.can('UPDATE', 'CS_PERFORMANCE')).toBe(false);
    expect(ability.can('READ', 'SETTING_ADMIN')).toBe(false);
  });

  it('withdraws a role rule whose bit is off (inbox index 1)', () => {
    const ability = buildAbility({
      role: 'USC',
      featuresAccessPermissions: {
        userPermissionIndex: bitString([2]),
        clientPermissionIndex: bitString([1, 2]),
      },
    });
    expect(ability.can('READ', 'CUSTOMER_SERVICE_INBOX')).toBe(false);
    expect(ability.can('READ', 'CUSTOMER_SERVICE_HISTORY')).toBe(true);
  });

  it('maps every listed index: 2 history, 9 transaction create, 14 store, 16 plan', () => {
    const all = bitString([0, 1, 2, 9, 10, 14, 15, 16]);
    const ability = buildAbility({
      role: 'USC',
      featuresAccessPermissions: { userPermissionIndex: all, clientPermissionIndex: all },
    });
    expect(ability.can('READ', 'SETTING_STORE')).toBe(true);
    expect(ability.can('READ', 'SETTING_PLAN_PRICING')).toBe(true);
    expect(ability.can('CREATE', 'TRANSACTION')).toBe(true);
    expect(ability.can('READ', 'SETTING_ACCOUNT')).toBe(false);
  });

  it('allows advanced search read-only with client bit 29', () => {
    const ability = buildAbility({
      role: 'ADC',
      featuresAccessPermissions: { userPermissionIndex: '', clientPermissionIndex: bitString([29]) },
    });
    expect(ability.can('READ', 'ADVANCE_SEARCH')).toBe(true);
    expect(ability.can('UPDATE', 'ADVANCE_SEARCH')).toBe(false);
  });

  it('never narrows OWN by bits', () => {
    const ability = buildAbility({
      role: 'OWN',
      featuresAccessPermissions: { userPermissionIndex: '', clientPermissionIndex: '' },
    });
    expect(ability.can('READ', 'SETTING_ADMIN')).toBe(true);
  });

  it('adds feature permissions on top of the role and removes Indonesia-only ones elsewhere', () => {
    const ability = buildAbility({
      role: 'USC',
      accountCountry: 'MY',
      featuresPermissions: [
        { name: 'CONTACT', actions: ['READ'] },
        { name: 'SETTING_FINANCE', actions: ['READ'] },
      ],
    });
    expect(ability.can('READ', 'CONTACT')).toBe(true);
    expect(ability.can('DELETE', 'CONTACT')).toBe(false);
    expect(ability.can('READ', 'SETTING_FINANCE')).toBe(false);
  });
});

describe('route table', () => {
  it('matches paths with parameters and trailing slashes', () => {
    expect(matchRoute('/setting/admin')?.permission).toBe('SETTING_ADMIN');
    expect(matchRoute('/setting/admin/')?.permission).toBe('SETTING_ADMIN');
    expect(matchRoute('/contact/edit-contact-tag/vip')?.permission).toBe('CONTACT');
    expect(matchRoute('/nowhere')).toBeUndefined();
  });

  it('refuses an agent every settings route but allows the password change', () => {
    const ability = buildAbility({ role: 'USC' });
    expect(canRead(ability, matchRoute('/setting/admin')?.permission)).toBe(false);
    expect(canRead(ability, matchRoute('/setting/self-change-password')?.permission)).toBe(true);
    expect(canRead(ability, matchRoute('/customer-service/inbox')?.permission)).toBe(true);
  });

  it('has unique paths', () => {
    const paths = routeTable.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
