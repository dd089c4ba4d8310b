import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../db/schema';
import { startTestServer, type TestServer } from '../../test/test-server';
import { refreshGraceMs } from './auth.service';

interface Pair {
  accessToken: string;
  refreshToken: string;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const refresh = (refreshToken: string) =>
  server.request<Pair>('POST', '/api/identity/auth/refresh-access', { body: { refreshToken } });

/** Moves the token's use back past the grace window, as if the replay came later. */
async function ageTokenUse(refreshToken: string): Promise<void> {
  const tokenHash = createHash('sha256').update(refreshToken).digest('hex');
  await server.database.db
    .update(refreshTokens)
    .set({ usedAt: new Date(Date.now() - refreshGraceMs - 1_000) })
    .where(eq(refreshTokens.tokenHash, tokenHash));
}

describe('refresh grace window', () => {
  it('answers ten simultaneous refreshes of one token with ten working successors', async () => {
    const { refreshToken } = await server.login('agent1@demo.test');
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(refreshToken)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const successors = new Set(answers.map((answer) => answer.body.refreshToken));
    expect(successors.size).toBe(10);

    for (const answer of answers) {
      const me = await server.request('GET', '/api/plus/account-activity', {
        token: answer.body.accessToken,
      });
      expect(me.status).toBe(200);
      const next = await refresh(answer.body.refreshToken);
      expect(next.status).toBe(200);
    }
  });

  it('gives a repeat within the window a successor in the same session', async () => {
    const { refreshToken } = await server.login('agent2@demo.test');
    const first = await refresh(refreshToken);
    const repeat = await refresh(refreshToken);
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.body.refreshToken).not.toBe(first.body.refreshToken);
    expect((await refresh(first.body.refreshToken)).status).toBe(200);
    expect((await refresh(repeat.body.refreshToken)).status).toBe(200);
  });

  it('revokes the whole family when a used token comes back after the window', async () => {
    const { refreshToken } = await server.login('agent1@demo.test');
    const first = await refresh(refreshToken);
    const second = await refresh(first.body.refreshToken);
    expect(second.status).toBe(200);
    await ageTokenUse(refreshToken);

    const replay = await refresh(refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    // The newest token of the family dies with it.
    expect((await refresh(second.body.refreshToken)).status).toBe(401);
  });

  it('gives no successor within the window once the session has ended', async () => {
    const pair = await server.login('agent2@demo.test');
    const first = await refresh(pair.refreshToken);
    const logout = await server.request('POST', '/api/identity/auth/logout', {
      token: first.body.accessToken,
      body: {},
    });
    expect(logout.status).toBe(200);
    expect((await refresh(pair.refreshToken)).status).toBe(401);
    expect((await refresh(first.body.refreshToken)).status).toBe(401);
  });

  it('refuses an unknown token', async () => {
    expect((await refresh('not-a-token')).status).toBe(401);
  });
});
