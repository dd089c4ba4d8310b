import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/identity/auth/login', () => {
  it('signs the demo owner in with a token that carries what the ability needs', async () => {
    const response = await server.request<Record<string, unknown>>('POST', '/api/identity/auth/login', {
      body: { email: 'Owner@Demo.test', password: 'Demo1234!' },
    });
    expect(response.status).toBe(200);
    expect(response.body.tokenType).toBe('Bearer');
    expect(response.body.refreshToken).toEqual(expect.any(String));
    const claims = decodeJwt(response.body.accessToken as string) as Record<string, unknown>;
    expect(claims).toMatchObject({
      role: 'OWN',
      clientId: server.demoClientId,
      accountCountry: 'ID',
      region: null,
      account: { sellerId: 'DEMO-001' },
      sub: { clientTimezone: 'Asia/Jakarta' },
      featuresAccessName: null,
    });
    expect(claims.features).toContain('INBOX');
    const lifetime = (claims.exp as number) - (claims.iat as number);
    expect(lifetime).toBe(900);
  });

  it('carries the supervisor feature-access bit strings', async () => {
    const { accessToken } = await server.login('supervisor@demo.test');
    const claims = decodeJwt(accessToken) as Record<string, { userPermissionIndex: string } | string>;
    expect(claims.featuresAccessName).toBe('Supervisor');
    expect(
      (claims.featuresAccessPermissions as { userPermissionIndex: string }).userPermissionIndex.slice(0, 3),
    ).toBe('111');
  });

  it('answers a wrong password and an unknown email alike, with the catalogue text', async () => {
    for (const body of [
      { email: 'owner@demo.test', password: 'wrong-password' },
      { email: 'nobody@demo.test', password: 'Demo1234!' },
    ]) {
      const response = await server.request('POST', '/api/identity/auth/login', { body });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'Email or password is invalid',
      });
    }
  });

  it('refuses a body without the fields with a 400 error object', async () => {
    const response = await server.request('POST', '/api/identity/auth/login', { body: { email: 'a@b.c' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(String(response.body.message)).toContain('password');
  });
});

describe('HTTP failures', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await server.request('POST', '/api/identity/auth/login', { rawBody: '{"email":' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Body is not valid JSON',
    });
  });

  it('answers a body over the limit with 413', async () => {
    const response = await server.request('POST', '/api/identity/auth/login', {
      body: { email: 'a@b.c', password: 'x'.repeat(1_100_000) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('answers an unknown API route with a 404 error object', async () => {
    const response = await server.request('GET', '/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route not found' });
  });

  it('sends security headers and echoes the request id', async () => {
    const response = await server.request('GET', '/api/health', { headers: { 'x-request-id': 'req-123' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-123');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.body).toMatchObject({ status: 'ok', database: { ok: true }, queue: { ok: true } });
  });

  it('publishes OpenAPI generated from the contracts', async () => {
    const response = await server.request<{ paths: Record<string, unknown> }>('GET', '/api/docs/json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/identity/auth/login',
        '/api/identity/users/me',
        '/api/plus/wallet/byClientId',
      ]),
    );
  });
});

describe('sessions', () => {
  // A repeat of the old token, within the grace window and after it, is tried in session-refresh.test.ts.
  it('rotates the refresh token: the new pair works', async () => {
    const first = await server.login('admin@demo.test');
    const rotated = await server.request<{ accessToken: string; refreshToken: string }>(
      'POST',
      '/api/identity/auth/refresh-access',
      { body: { refreshToken: first.refreshToken } },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.refreshToken).not.toBe(first.refreshToken);
    const me = await server.request('GET', '/api/identity/users/me', { token: rotated.body.accessToken });
    expect(me.status).toBe(200);
  });

  it('logs out: the session refresh token stops working', async () => {
    const pair = await server.login('agent2@demo.test');
    const out = await server.request('POST', '/api/identity/auth/logout', {
      token: pair.accessToken,
      body: { refreshToken: pair.refreshToken },
    });
    expect(out.status).toBe(200);
    const refresh = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: pair.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const again = await server.login('agent2@demo.test');
    const me = await server.request<{ user: { agentStatus: string } }>('GET', '/api/identity/users/me', {
      token: again.accessToken,
    });
    expect(me.body.user.agentStatus).toBe('OFFLINE');
  });

  it('refuses a missing, forged or garbage bearer token', async () => {
    const { accessToken } = await server.login('owner@demo.test');
    const forged = `${accessToken.slice(0, -4)}AAAA`;
    for (const token of [undefined, 'garbage', forged]) {
      const response = await server.request('GET', '/api/identity/users/me', { token });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });
});

describe('GET /api/identity/users/me', () => {
  it('returns the user, the client and the permission rules', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const response = await server.request<Record<string, Record<string, unknown>>>(
      'GET',
      '/api/identity/users/me',
      {
        token: accessToken,
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email: 'agent1@demo.test', role: 'USC', status: 'ACTIVE' });
    expect(response.body.client).toMatchObject({
      name: 'Toko Demo',
      country: 'ID',
      timezone: 'Asia/Jakarta',
    });
    expect(response.body.permissions).toEqual(
      expect.arrayContaining([{ action: 'manage', subject: 'CUSTOMER_SERVICE_INBOX', inverted: false }]),
    );
  });
});

describe('wallet', () => {
  it('gives every signed-in user their own client balance, and 404 for another client', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const own = await server.request('GET', `/api/plus/wallet/byClientId?clientId=${server.demoClientId}`, {
      token: accessToken,
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ clientId: server.demoClientId, chatCredit: { balance: 0, balanceBonus: 0 } });
    const other = await server.request(
      'GET',
      '/api/plus/wallet/byClientId?clientId=00000000-0000-4000-8000-000000000000',
      {
        token: accessToken,
      },
    );
    expect(other.status).toBe(404);
  });
});

describe('rate limit on sign-in', () => {
  it('answers 429 with the catalogue text past the limit', async () => {
    const limited = await startTestServer({ env: { LOGIN_RATE_LIMIT: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await limited.request('POST', '/api/identity/auth/login', {
          body: { email: 'owner@demo.test', password: 'wrong-password' },
        });
        statuses.push(response.status);
        if (response.status === 429)
          expect(response.body).toMatchObject({ statusCode: 429, message: 'Too many request' });
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
