import type { AccountActivity } from '@app/contracts';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { AccountActivityService } from './account-activity.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const sessionOf = (accessToken: string) => (decodeJwt(accessToken) as { sid: string }).sid;

async function listFor(token: string): Promise<AccountActivity[]> {
  const response = await server.request<{ content: AccountActivity[] }>('GET', '/api/plus/account-activity', {
    token,
  });
  expect(response.status).toBe(200);
  return response.body.content;
}

/** Waits for the sign-in job to write the session's record. */
async function waitForRecord(token: string): Promise<AccountActivity> {
  const sessionId = sessionOf(token);
  return eventually(
    async () => (await listFor(token)).find((record) => record.sessionId === sessionId),
    10_000,
    {
      message: `no account-activity record for session ${sessionId}`,
    },
  );
}

describe('account activity', () => {
  it('is recorded by sign-in, with the session origin', async () => {
    const response = await server.request<{ accessToken: string }>('POST', '/api/identity/auth/login', {
      body: { email: 'agent1@demo.test', password: 'Demo1234!' },
      headers: { 'user-agent': 'journey-browser/1.0' },
    });
    expect(response.status).toBe(200);
    const record = await waitForRecord(response.body.accessToken);
    expect(record).toMatchObject({ email: 'agent1@demo.test', userAgent: 'journey-browser/1.0' });
    expect(record.ip).toEqual(expect.any(String));
  });

  it('records the caller session once however often it is posted', async () => {
    const { accessToken } = await server.login('agent2@demo.test');
    const posts = await Promise.all(
      [1, 2, 3].map(() =>
        server.request<AccountActivity>('POST', '/api/plus/account-activity', {
          token: accessToken,
          headers: { 'user-agent': 'mobile-app/2.0' },
        }),
      ),
    );
    expect(posts.map((post) => post.status)).toEqual([200, 200, 200]);
    expect(new Set(posts.map((post) => post.body.id)).size).toBe(1);
    await waitForRecord(accessToken);
    const mine = (await listFor(accessToken)).filter((record) => record.sessionId === sessionOf(accessToken));
    expect(mine).toHaveLength(1);
  });

  it('shows admins the whole client and others only their own', async () => {
    const agent = await server.login('agent1@demo.test');
    const owner = await server.login('owner@demo.test');
    await waitForRecord(agent.accessToken);
    await waitForRecord(owner.accessToken);

    const seenByOwner = await listFor(owner.accessToken);
    expect(seenByOwner.map((record) => record.email)).toEqual(
      expect.arrayContaining(['agent1@demo.test', 'owner@demo.test']),
    );
    const seenByAgent = await listFor(agent.accessToken);
    expect(seenByAgent.length).toBeGreaterThan(0);
    expect(seenByAgent.every((record) => record.email === 'agent1@demo.test')).toBe(true);
  });

  it('lets a user delete their own records and an admin anyone of the client', async () => {
    const agent = await server.login('agent2@demo.test');
    const owner = await server.login('owner@demo.test');
    await waitForRecord(agent.accessToken);
    const clientId = server.demoClientId;

    const forbidden = await server.request('POST', '/api/plus/account-activity/delete', {
      token: agent.accessToken,
      body: { clientId, email: 'owner@demo.test' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });

    const own = await server.request<{ deleted: number }>('POST', '/api/plus/account-activity/delete', {
      token: agent.accessToken,
      body: { clientId, email: 'Agent2@Demo.test' },
    });
    expect(own.status).toBe(200);
    expect(own.body.deleted).toBeGreaterThan(0);
    expect(await listFor(agent.accessToken)).toEqual([]);

    await server.request('POST', '/api/plus/account-activity', { token: agent.accessToken });
    const byAdmin = await server.request<{ deleted: number }>('POST', '/api/plus/account-activity/delete', {
      token: owner.accessToken,
      body: { clientId, email: 'agent2@demo.test' },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.deleted).toBe(1);
    expect(await listFor(agent.accessToken)).toEqual([]);
  });

  it("answers 404 for another client's id and never touches its records", async () => {
    const other = await createClientWithUser(server.database.db);
    const otherTokens = await server.login(other.email);
    await waitForRecord(otherTokens.accessToken);
    const owner = await server.login('owner@demo.test');

    const response = await server.request('POST', '/api/plus/account-activity/delete', {
      token: owner.accessToken,
      body: { clientId: other.clientId, email: other.email },
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(await listFor(otherTokens.accessToken)).toHaveLength(1);
    expect((await listFor(owner.accessToken)).some((record) => record.email === other.email)).toBe(false);
  });

  it('refuses a bad body with a 400 error object', async () => {
    const { accessToken } = await server.login('agent1@demo.test');
    const response = await server.request('POST', '/api/plus/account-activity/delete', {
      token: accessToken,
      body: { clientId: 'nope', email: 'not-an-email' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('sweeps the records of sessions that ended without a sign-out', async () => {
    const agent = await server.login('agent2@demo.test');
    const owner = await server.login('owner@demo.test');
    const record = await waitForRecord(agent.accessToken);
    await waitForRecord(owner.accessToken);
    await server.database.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: 'test' })
      .where(eq(sessions.id, record.sessionId as string));
    expect(await new AccountActivityService(server.database.db).pruneEnded()).toBeGreaterThan(0);
    const left = await listFor(owner.accessToken);
    expect(left.some((row) => row.id === record.id)).toBe(false);
    expect(left.some((row) => row.sessionId === sessionOf(owner.accessToken))).toBe(true);
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/plus/account-activity'],
      ['POST', '/api/plus/account-activity'],
      ['POST', '/api/plus/account-activity/delete'],
    ] as const) {
      const response = await server.request(method, path, {
        body: path.endsWith('delete')
          ? { clientId: server.demoClientId, email: 'owner@demo.test' }
          : undefined,
      });
      expect(response.status).toBe(401);
    }
  });

  it('is deleted by sign-out, and a signed-out session cannot record again', async () => {
    const agent = await server.login('agent1@demo.test');
    const owner = await server.login('owner@demo.test');
    const record = await waitForRecord(agent.accessToken);

    const logout = await server.request('POST', '/api/identity/auth/logout', {
      token: agent.accessToken,
      body: {},
    });
    expect(logout.status).toBe(200);
    expect((await listFor(owner.accessToken)).some((row) => row.id === record.id)).toBe(false);
    const again = await server.request('POST', '/api/plus/account-activity', { token: agent.accessToken });
    expect(again.status).toBe(401);
    expect((await listFor(owner.accessToken)).some((row) => row.sessionId === record.sessionId)).toBe(false);
  });
});
