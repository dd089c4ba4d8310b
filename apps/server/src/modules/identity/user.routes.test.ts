import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let other: { clientId: string; userId: string; email: string };

beforeAll(async () => {
  server = await startTestServer();
  other = await createClientWithUser(server.database.db);
});
afterAll(async () => {
  await server?.close();
});

describe('permissions on the API', () => {
  it('lets an admin list the users of their own client only', async () => {
    const { accessToken } = await server.login('admin@demo.test');
    const response = await server.request<{ content: Array<{ email: string }>; total: number }>(
      'GET',
      '/api/identity/users?pageSize=50',
      { token: accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(5);
    const emails = response.body.content.map((user) => user.email);
    expect(emails).toContain('agent1@demo.test');
    expect(emails).not.toContain(other.email);
  });

  it('refuses an agent the admin-settings API with 403 and the menu-access text', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const response = await server.request('GET', '/api/identity/users', { token: accessToken });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'You have no permission to access this menu.',
    });
  });
});

describe('tenancy', () => {
  it("answers 404 for another client's user, and 200 for one's own", async () => {
    const { accessToken } = await server.login('owner@demo.test');
    const foreign = await server.request('GET', `/api/identity/users/${other.userId}`, {
      token: accessToken,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ statusCode: 404, error: 'Not Found' });

    const otherToken = (await server.login(other.email)).accessToken;
    const own = await server.request<{ email: string }>('GET', `/api/identity/users/${other.userId}`, {
      token: otherToken,
    });
    expect(own.status).toBe(200);
    expect(own.body.email).toBe(other.email);
  });

  it('row-level security hides other clients even from a query that forgets to filter', async () => {
    const demoClientId = server.demoClientId!;
    const visible = await withTenant(server.database.db, demoClientId, (tx) =>
      tx.select({ email: users.email, clientId: users.clientId }).from(users),
    );
    expect(visible.length).toBe(5);
    expect(visible.every((row) => row.clientId === demoClientId)).toBe(true);

    await expect(
      withTenant(server.database.db, demoClientId, (tx) =>
        tx.insert(users).values({
          clientId: other.clientId,
          email: 'sneaky@other.test',
          name: 'Sneaky',
          role: 'OWN',
          passwordHash: 'x',
        }),
      ),
    ).rejects.toThrow();
    const [{ count }] = (
      (await server.database.db.execute(
        sql`select count(*)::int as count from users where email = 'sneaky@other.test'`,
      )) as unknown as {
        rows: Array<{ count: number }>;
      }
    ).rows;
    expect(count).toBe(0);
  });
});

describe('agent availability', () => {
  it('keeps the status on the user', async () => {
    const { accessToken } = await server.login('agent2@demo.test');
    const response = await server.request('POST', '/api/identity/pushnotif/status', {
      token: accessToken,
      body: { status: 'OFFLINE' },
    });
    expect(response.status).toBe(200);
    const me = await server.request<{ user: { agentStatus: string } }>('GET', '/api/identity/users/me', {
      token: accessToken,
    });
    expect(me.body.user.agentStatus).toBe('OFFLINE');
    const bad = await server.request('POST', '/api/identity/pushnotif/status', {
      token: accessToken,
      body: { status: 'AWAY' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('PUT /api/identity/users/changePassword', () => {
  it('checks the spec rules, then changes the password and ends every session', async () => {
    const account = await createClientWithUser(server.database.db, { password: 'Start1234' });
    const pair = await server.login(account.email, 'Start1234');
    const change = (body: Record<string, string>) =>
      server.request('PUT', '/api/identity/users/changePassword', { token: pair.accessToken, body });

    expect(
      (await change({ currentPassword: 'Start1234', newPassword: 'Next12345', confirmPassword: 'Other1234' }))
        .body,
    ).toMatchObject({ statusCode: 400, message: "New password and confirm password don't match" });
    expect(
      (await change({ currentPassword: 'Start1234', newPassword: 'short', confirmPassword: 'short' })).body,
    ).toMatchObject({ statusCode: 400, message: expect.stringContaining('at least 8 characters') });
    expect(
      (await change({ currentPassword: 'Wrong1234', newPassword: 'Next12345', confirmPassword: 'Next12345' }))
        .body,
    ).toMatchObject({ statusCode: 400, message: 'Current password is incorrect' });
    expect(
      (await change({ currentPassword: 'Start1234', newPassword: 'Start1234', confirmPassword: 'Start1234' }))
        .body,
    ).toMatchObject({ statusCode: 400, message: 'Password already used' });

    const ok = await change({
      currentPassword: 'Start1234',
      newPassword: 'Next12345',
      confirmPassword: 'Next12345',
    });
    expect(ok.status).toBe(200);

    const refresh = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: pair.refreshToken },
    });
    expect(refresh.status).toBe(401);
    await expect(server.login(account.email, 'Start1234')).rejects.toThrow();
    const fresh = await server.login(account.email, 'Next12345');
    expect(fresh.accessToken).toEqual(expect.any(String));
  });
});
