import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-provider';
import { startTestServer, type TestServer } from '../../test/test-server';
import { totpAt } from './totp';

let provider: TestOidcProvider;
let server: TestServer;
beforeAll(async () => {
  provider = await startTestOidcProvider();
  server = await startTestServer({
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

/** Follows one redirect by hand and answers where it points. */
async function locationOf(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = response.headers.get('location');
  if (!location) throw new Error(`no location from ${url}`);
  return new URL(location, url).toString();
}

/** The browser's round trip: start → the provider's /authorize → our callback → the sign-in page. */
async function googleRoundTrip(options: { redirect?: string; alterCallback?: (url: URL) => void } = {}) {
  const query = options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : '';
  const authorize = new URL(await locationOf(`${server.url}/api/identity/auth/oidc/start${query}`));
  const callback = new URL(await locationOf(authorize.toString()));
  options.alterCallback?.(callback);
  const landing = new URL(await locationOf(callback.toString()));
  return { authorize, callback, landing };
}

const exchange = (code: string) =>
  server.request<Record<string, unknown>>('POST', '/api/identity/auth/oidc/exchange', { body: { code } });

describe('Google sign-in configuration', () => {
  it('says it is enabled when an issuer is configured', async () => {
    const config = await server.request('GET', '/api/identity/auth/oidc/config');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({ enabled: true });
  });

  it('asks the issuer for a code with PKCE (S256), state and nonce', async () => {
    const authorize = new URL(await locationOf(`${server.url}/api/identity/auth/oidc/start`));
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${provider.issuer}/authorize`);
    const params = authorize.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(provider.clientId);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(params.get('redirect_uri')).toBe(`${server.url}/api/identity/auth/oidc/callback`);
    expect(params.get('scope')).toContain('openid');
  });
});

describe('Google sign-in', () => {
  it('signs the demo owner in with a verified e-mail, handing tokens over a one-time code', async () => {
    provider.person = { email: 'Owner@Demo.test' };
    const { landing } = await googleRoundTrip({ redirect: '/inbox' });
    expect(landing.pathname).toBe('/login');
    expect(landing.search).not.toContain('accessToken');
    expect(landing.searchParams.get('redirect')).toBe('/inbox');
    const code = landing.searchParams.get('oidc') ?? '';
    const signedIn = await exchange(code);
    expect(signedIn.status).toBe(200);
    expect((signedIn.body.user as { email: string }).email).toBe('owner@demo.test');
    const me = await server.request('GET', '/api/identity/users/me', {
      token: signedIn.body.accessToken as string,
    });
    expect(me.status).toBe(200);
  });

  it('refuses a replayed exchange code', async () => {
    provider.person = { email: 'owner@demo.test' };
    const { landing } = await googleRoundTrip();
    const code = landing.searchParams.get('oidc') ?? '';
    expect((await exchange(code)).status).toBe(200);
    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Sign-in code is invalid or expired, please sign in again',
    });
  });

  it('keeps an off-site redirect out of the landing page', async () => {
    provider.person = { email: 'owner@demo.test' };
    const { landing } = await googleRoundTrip({ redirect: '//evil.test/steal' });
    expect(landing.searchParams.get('redirect')).toBeNull();
    expect(landing.searchParams.get('oidc')).toBeTruthy();
  });

  it('answers email not registered for an unknown e-mail', async () => {
    provider.person = { email: 'stranger@nowhere.test' };
    const { landing } = await googleRoundTrip();
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('oidcError')).toBe('emailNotRegistered');
    expect(landing.searchParams.get('oidc')).toBeNull();
  });

  it('refuses an e-mail the provider has not verified', async () => {
    provider.person = { email: 'owner@demo.test', emailVerified: false };
    const { landing } = await googleRoundTrip();
    expect(landing.searchParams.get('oidcError')).toBe('emailUnverified');
  });

  it('refuses a callback with a state it did not issue', async () => {
    provider.person = { email: 'owner@demo.test' };
    const { landing } = await googleRoundTrip({
      alterCallback: (url) => url.searchParams.set('state', 'forged-state'),
    });
    expect(landing.searchParams.get('oidcError')).toBe('signInFailed');
  });

  it('refuses a second callback with the same state', async () => {
    provider.person = { email: 'owner@demo.test' };
    const { callback, landing } = await googleRoundTrip();
    expect(landing.searchParams.get('oidc')).toBeTruthy();
    const again = new URL(await locationOf(callback.toString()));
    expect(again.searchParams.get('oidcError')).toBe('signInFailed');
  });

  it('refuses an id_token whose signature was tampered with', async () => {
    provider.person = { email: 'owner@demo.test', tamperSignature: true };
    provider.refusals.length = 0;
    const { landing } = await googleRoundTrip();
    // The provider handed the token out; our check of the id_token is what refused it.
    expect(provider.refusals).toEqual([]);
    expect(landing.searchParams.get('oidcError')).toBe('signInFailed');
  });

  it('refuses an id_token with another nonce', async () => {
    provider.person = { email: 'owner@demo.test', nonceOverride: 'someone-elses-nonce' };
    provider.refusals.length = 0;
    const { landing } = await googleRoundTrip();
    // The provider handed the token out; our check of the id_token is what refused it.
    expect(provider.refusals).toEqual([]);
    expect(landing.searchParams.get('oidcError')).toBe('signInFailed');
  });

  it('sends the verifier the challenge was made from, checked by the provider', async () => {
    provider.person = { email: 'owner@demo.test' };
    provider.refusals.length = 0;
    await googleRoundTrip();
    expect(provider.refusals).toEqual([]);
  });

  it('asks a user with 2-step on for the code, as the password sign-in does', async () => {
    const account = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login(account.email);
    const setup = await server.request<{ secret: string }>('GET', '/api/identity/users/mfa/activate', {
      token: accessToken,
    });
    await server.request('POST', '/api/identity/users/mfa/activate', {
      token: accessToken,
      body: { token: totpAt(setup.body.secret) },
    });

    provider.person = { email: account.email };
    const { landing } = await googleRoundTrip();
    const answer = await exchange(landing.searchParams.get('oidc') ?? '');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ mfaRequired: true });
    expect(answer.body.accessToken).toBeUndefined();
    const verified = await server.request<Record<string, unknown>>('POST', '/api/identity/users/mfa/verify', {
      token: answer.body.mfaToken as string,
      body: { token: totpAt(setup.body.secret) },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.accessToken).toEqual(expect.any(String));
  });

  it('refuses an inactive user', async () => {
    const account = await createClientWithUser(server.database.db);
    await server.database.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, account.userId));
    provider.person = { email: account.email };
    const { landing } = await googleRoundTrip();
    expect(landing.searchParams.get('oidcError')).toBe('userInactive');
  });
});

describe('Google sign-in switched off', () => {
  it('answers enabled false and has no start route', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.request('GET', '/api/identity/auth/oidc/config')).body).toEqual({ enabled: false });
      expect((await plain.request('GET', '/api/identity/auth/oidc/start')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
