import { consentDue } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Me = { consentAgreedAt: string | null; consentTimestamp: string | null; user: { createdAt: string } };
const due = (me: Me, now?: number) => consentDue({ ...me, createdAt: me.user.createdAt }, now);

describe('user consent', () => {
  it('does not cover the demo: the demo staff are seeded as having agreed', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const me = (await server.request<Me>('GET', '/api/identity/users/me', { token: accessToken })).body;
    expect(me.consentAgreedAt).not.toBeNull();
    expect(due(me)).toBe(false);
  });

  it('records a dismissal as a time only, and an approval as an agreement', async () => {
    const account = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login(account.email);
    const me = async () =>
      (await server.request<Me>('GET', '/api/identity/users/me', { token: accessToken })).body;
    expect(await me()).toMatchObject({ consentAgreedAt: null, consentTimestamp: null });
    const fresh = await me();
    // Never answered: the dialog shows at once.
    expect(due(fresh)).toBe(true);

    const dismissedAt = new Date().toISOString();
    const dismiss = await server.request<Me>('PUT', '/api/identity/users/consent', {
      token: accessToken,
      body: { consentTimestamp: dismissedAt, agreed: false },
    });
    expect(dismiss.status).toBe(200);
    const afterDismiss = await me();
    expect(afterDismiss).toMatchObject({ consentAgreedAt: null, consentTimestamp: dismissedAt });
    // Dismissed just now: quiet for 6 hours, then due again.
    expect(due(afterDismiss)).toBe(false);
    expect(due(afterDismiss, Date.parse(dismissedAt) + 21_600_001)).toBe(true);

    await server.request('PUT', '/api/identity/users/consent', {
      token: accessToken,
      body: { consentTimestamp: new Date().toISOString(), agreed: true },
    });
    const afterApprove = await me();
    expect(afterApprove.consentAgreedAt).toEqual(expect.any(String));
    expect(due(afterApprove, Date.now() + 10 * 21_600_000)).toBe(false);
  });

  it('validates the body and needs a signed-in user', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const bad = await server.request('PUT', '/api/identity/users/consent', {
      token: accessToken,
      body: { consentTimestamp: 'yesterday', agreed: true },
    });
    expect(bad.status).toBe(400);
    const anonymous = await server.request('PUT', '/api/identity/users/consent', {
      body: { consentTimestamp: new Date().toISOString(), agreed: true },
    });
    expect(anonymous.status).toBe(401);
  });

  it('serves the consent document as text in Indonesian and English', async () => {
    const indonesian = await server.request<string>('GET', '/api/identity/consent-document');
    expect(indonesian.status).toBe(200);
    expect(indonesian.headers.get('content-type')).toContain('text/plain');
    expect(indonesian.body).toContain('Persetujuan Privasi');
    const english = await server.request<string>('GET', '/api/identity/consent-document?lang=en');
    expect(english.body).toContain('Privacy Consent');
  });
});
