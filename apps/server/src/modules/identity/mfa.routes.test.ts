import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, mfaRecoveryCodes, users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { totpAt } from './totp';

const invalidCode = 'The code you entered is invalid. Please try again.';
const password = 'Demo1234!';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Setup {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

/** A fresh owner with 2-step on; answers its secret and recovery codes. */
async function userWithMfa(role: 'OWN' | 'USC' = 'OWN') {
  const account = await createClientWithUser(server.database.db, { role });
  const { accessToken } = await server.login(account.email);
  const setup = await server.request<Setup>('GET', '/api/identity/users/mfa/activate', {
    token: accessToken,
  });
  const activated = await server.request<{ recoveryCodes: string[] }>(
    'POST',
    '/api/identity/users/mfa/activate',
    {
      token: accessToken,
      body: { token: totpAt(setup.body.secret) },
    },
  );
  expect(activated.status).toBe(200);
  return { ...account, accessToken, secret: setup.body.secret, recoveryCodes: activated.body.recoveryCodes };
}

const signIn = (email: string, pass = password) =>
  server.request<Record<string, unknown>>('POST', '/api/identity/auth/login', {
    body: { email, password: pass },
  });

const verify = (mfaToken: string, token: string) =>
  server.request<Record<string, unknown>>('POST', '/api/identity/users/mfa/verify', {
    token: mfaToken,
    body: { token },
  });

describe('2-step setup', () => {
  it('answers a pending secret with its otpauth URL and QR, sealed at rest', async () => {
    const account = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login(account.email);
    const setup = await server.request<Setup>('GET', '/api/identity/users/mfa/activate', {
      token: accessToken,
    });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, account.userId));
    expect(row.mfaSecret).not.toContain(setup.body.secret);
    expect(row.mfaEnabledAt).toBeNull();
  });

  it('refuses a wrong code, then activates with ten hashed recovery codes', async () => {
    const account = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login(account.email);
    const setup = await server.request<Setup>('GET', '/api/identity/users/mfa/activate', {
      token: accessToken,
    });
    const wrong = await server.request('POST', '/api/identity/users/mfa/activate', {
      token: accessToken,
      body: { token: '000000' === totpAt(setup.body.secret) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: invalidCode });

    const done = await server.request<{ recoveryCodes: string[] }>(
      'POST',
      '/api/identity/users/mfa/activate',
      {
        token: accessToken,
        body: { token: totpAt(setup.body.secret) },
      },
    );
    expect(done.status).toBe(200);
    expect(new Set(done.body.recoveryCodes).size).toBe(10);
    const stored = await server.database.db
      .select()
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, account.userId));
    expect(stored).toHaveLength(10);
    expect(stored.map((code) => code.codeHash)).not.toContain(done.body.recoveryCodes[0]);
    const status = await server.request('GET', '/api/identity/users/mfa/status', { token: accessToken });
    expect(status.body).toEqual({ enabled: true, clientRequiresMfa: false });
  });

  it('deactivates only with a valid code', async () => {
    const user = await userWithMfa();
    const wrong = await server.request('POST', '/api/identity/users/mfa/deactivate', {
      token: user.accessToken,
      body: { token: 'NOPE1-NOPE1' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: invalidCode });
    const off = await server.request('POST', '/api/identity/users/mfa/deactivate', {
      token: user.accessToken,
      body: { token: totpAt(user.secret) },
    });
    expect(off.status).toBe(200);
    const signedIn = await signIn(user.email);
    expect(signedIn.body.accessToken).toEqual(expect.any(String));
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/identity/users/mfa/activate'],
      ['POST', '/api/identity/users/mfa/activate'],
      ['POST', '/api/identity/users/mfa/deactivate'],
      ['POST', '/api/identity/users/mfa/verify'],
      ['GET', '/api/identity/users/mfa/activate/internal'],
      ['POST', '/api/identity/users/mfa/verify/internal'],
      ['PUT', '/api/identity/clients/mfa-policy'],
    ] as const) {
      const body = path.endsWith('mfa-policy') ? { required: true } : { token: '123456' };
      const response = await server.request(method, path, method === 'GET' ? {} : { body });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('sign-in with 2-step on', () => {
  it('asks for the code, refuses a wrong one and opens the session with the right one', async () => {
    const user = await userWithMfa();
    const first = await signIn(user.email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    const mfaToken = first.body.mfaToken as string;

    // The challenge is no access token.
    const me = await server.request('GET', '/api/identity/users/me', { token: mfaToken });
    expect(me.status).toBe(401);

    const wrong = await verify(mfaToken, totpAt(user.secret, Date.now() - 10 * 60_000));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: invalidCode });

    const right = await verify(mfaToken, totpAt(user.secret));
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ tokenType: 'Bearer', user: { email: user.email } });
    const after = await server.request('GET', '/api/identity/users/me', {
      token: right.body.accessToken as string,
    });
    expect(after.status).toBe(200);
  });

  it('refuses a code already used, so it cannot open a second session in its window', async () => {
    const user = await userWithMfa();
    const code = totpAt(user.secret);
    const first = (await signIn(user.email)).body as { mfaToken: string };
    expect((await verify(first.mfaToken, code)).status).toBe(200);
    const second = (await signIn(user.email)).body as { mfaToken: string };
    const replay = await verify(second.mfaToken, code);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ message: invalidCode });
    // The next step's code is new, and is taken.
    expect((await verify(second.mfaToken, totpAt(user.secret, Date.now() + 30_000))).status).toBe(200);
  });

  it('takes a recovery code once in place of a code', async () => {
    const user = await userWithMfa();
    const { mfaToken } = (await signIn(user.email)).body as { mfaToken: string };
    const code = user.recoveryCodes[3];
    expect((await verify(mfaToken, code.toLowerCase())).status).toBe(200);
    const again = await verify(mfaToken, code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: invalidCode });
  });

  it('refuses a forged or setup challenge at verify', async () => {
    const user = await userWithMfa();
    expect((await verify('not-a-token', totpAt(user.secret))).status).toBe(401);
    expect((await verify(user.accessToken, totpAt(user.secret))).status).toBe(401);
  });
});

describe('client that requires 2-step', () => {
  it('lets only the owner switch it', async () => {
    const agent = await createClientWithUser(server.database.db, { role: 'USC' });
    const { accessToken } = await server.login(agent.email);
    const refused = await server.request('PUT', '/api/identity/clients/mfa-policy', {
      token: accessToken,
      body: { required: true },
    });
    expect(refused.status).toBe(403);
    const [client] = await server.database.db.select().from(clients).where(eq(clients.id, agent.clientId));
    expect(client.requireMfa).toBe(false);
  });

  it('sends a user without 2-step through the forced activation, which signs them in', async () => {
    const owner = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login(owner.email);
    const switched = await server.request('PUT', '/api/identity/clients/mfa-policy', {
      token: accessToken,
      body: { required: true },
    });
    expect(switched.body).toEqual({ required: true });

    const first = await signIn(owner.email);
    expect(first.body).toEqual({ mfaSetupRequired: true, mfaToken: expect.any(String) });
    const setupToken = first.body.mfaToken as string;
    // A setup challenge cannot stand in for the code step.
    expect((await verify(setupToken, '123456')).status).toBe(401);

    const setup = await server.request<Setup>('GET', '/api/identity/users/mfa/activate/internal', {
      token: setupToken,
    });
    expect(setup.status).toBe(200);
    const wrong = await server.request('POST', '/api/identity/users/mfa/verify/internal', {
      token: setupToken,
      body: { token: totpAt(setup.body.secret, Date.now() - 10 * 60_000) },
    });
    expect(wrong.body).toMatchObject({ statusCode: 400, message: invalidCode });
    const done = await server.request<Record<string, unknown>>(
      'POST',
      '/api/identity/users/mfa/verify/internal',
      {
        token: setupToken,
        body: { token: totpAt(setup.body.secret) },
      },
    );
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ tokenType: 'Bearer', recoveryCodes: expect.any(Array) });

    // From now on the normal code step applies, and 2-step cannot be turned off.
    expect((await signIn(owner.email)).body).toMatchObject({ mfaRequired: true });
    const off = await server.request('POST', '/api/identity/users/mfa/deactivate', {
      token: done.body.accessToken as string,
      body: { token: totpAt(setup.body.secret) },
    });
    expect(off.status).toBe(400);
  });
});

describe('lockout', () => {
  it('locks after five wrong passwords, even for the right one, and unlocks after the window', async () => {
    const account = await createClientWithUser(server.database.db);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await signIn(account.email, 'Wrong1234!')).status).toBe(401);
    }
    const locked = await signIn(account.email);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ statusCode: 429, message: 'Too many request' });

    await server.database.db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, account.userId));
    const open = await signIn(account.email);
    expect(open.status).toBe(200);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, account.userId));
    expect(row).toMatchObject({ failedSignInCount: 0, lockedUntil: null });
  });

  it('counts wrong codes too, and a success resets the count', async () => {
    const user = await userWithMfa();
    const { mfaToken } = (await signIn(user.email)).body as { mfaToken: string };
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await verify(mfaToken, 'WRONG-CODE1')).status).toBe(400);
    }
    expect((await verify(mfaToken, totpAt(user.secret))).status).toBe(200);

    const next = (await signIn(user.email)).body as { mfaToken: string };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await verify(next.mfaToken, 'WRONG-CODE1')).status).toBe(400);
    }
    expect((await verify(next.mfaToken, totpAt(user.secret))).status).toBe(429);
    expect((await signIn(user.email)).status).toBe(429);
  });
});
