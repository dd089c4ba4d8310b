import type { AccessTokenClaims } from '@app/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from './authentication';

const secret = 'test-secret-test-secret-test-secret-0123456789';

const claims: AccessTokenClaims = {
  uid: '3f1c9a52-5d0e-4b8e-9a55-0c7d2f1e4a10',
  sid: '8b2e4d61-7a3f-4c1b-8e2d-5f6a7b8c9d01',
  role: 'USC',
  clientId: 'c5d7e9f1-2a3b-4c5d-8e7f-9a0b1c2d3e4f',
  email: 'agent@example.test',
  features: [],
  featuresAccessName: null,
  featuresAccessPermissions: null,
  featuresPermissions: [],
  accountCountry: 'ID',
  region: null,
  account: { sellerId: null },
  sub: { clientTimezone: 'Asia/Jakarta' },
  csPosition: null,
  enableMultiClient: false,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('AccessTokens.verify', () => {
  it('gives the same caller for a token verified again, each time as its own object', async () => {
    const tokens = new AccessTokens(secret, 900);
    const token = await tokens.sign(claims);
    const first = await tokens.verify(token);
    const second = await tokens.verify(token);
    expect(first).toMatchObject({ userId: claims.uid, clientId: claims.clientId, role: 'USC' });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second?.ability.can('READ', 'CUSTOMER_SERVICE_HISTORY')).toBe(true);
    expect(second?.ability.can('READ', 'SETTING_ADMIN')).toBe(false);
  });

  it('gives each token the ability of its own access claims, whoever verified before', async () => {
    const tokens = new AccessTokens(secret, 900);
    const agent = await tokens.verify(await tokens.sign(claims));
    const owner = await tokens.verify(await tokens.sign({ ...claims, role: 'OWN' }));
    const abroad = await tokens.verify(await tokens.sign({ ...claims, role: 'OWN', accountCountry: 'MY' }));
    const grouped = await tokens.verify(
      await tokens.sign({ ...claims, featuresPermissions: [{ name: 'SETTING_ADMIN', actions: ['READ'] }] }),
    );
    expect(agent?.ability.can('READ', 'SETTING_ADMIN')).toBe(false);
    expect(owner?.ability.can('READ', 'SETTING_ADMIN')).toBe(true);
    expect(grouped?.ability.can('READ', 'SETTING_ADMIN')).toBe(true);
    expect(abroad?.ability.rules).not.toEqual(owner?.ability.rules);
    const otherAgent = await tokens.verify(await tokens.sign({ ...claims, uid: crypto.randomUUID() }));
    expect(otherAgent?.ability.rules).toEqual(agent?.ability.rules);
  });

  it('refuses a remembered token once it expires', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z'), toFake: ['Date'] });
    const tokens = new AccessTokens(secret, 60);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-22T10:00:59Z'));
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token signed with another secret or altered, even after the real one was verified', async () => {
    const tokens = new AccessTokens(secret, 900);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).not.toBeNull();
    const forged = await new AccessTokens('another-secret-another-secret-another-0123', 900).sign(claims);
    expect(await tokens.verify(forged)).toBeNull();
    const [header, , signature] = token.split('.');
    const body = Buffer.from(JSON.stringify({ ...claims, role: 'OWN' })).toString('base64url');
    expect(await tokens.verify(`${header}.${body}.${signature}`)).toBeNull();
    expect(await tokens.verify(undefined)).toBeNull();
  });
});
