import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { clients, pageVisits, users } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { hashPassword } from '../identity/password-hasher';

// The tracked client's id must be known before the server starts (it is configuration),
// so this client is made with a chosen id rather than by the factory.
const trackedClientId = randomUUID();
const trackedEmail = `tracked-${trackedClientId.slice(0, 8)}@tracked.test`;

let server: TestServer;
let trackedToken: string;
let trackedUserId: string;
let demoToken: string;
let other: { clientId: string; userId: string; email: string };

const visitPath = '/api/commerce/tracker/page-visitation';

beforeAll(async () => {
  server = await startTestServer({ env: { TRACKED_CLIENT_IDS: ` ${trackedClientId.toUpperCase()} ,` } });
  const db = server.database.db;
  await db
    .insert(clients)
    .values({ id: trackedClientId, slug: `tracked-${trackedClientId}`, name: 'Tracked', country: 'ID' });
  const [user] = await db
    .insert(users)
    .values({
      clientId: trackedClientId,
      email: trackedEmail,
      name: 'Tracked User',
      role: 'OWN',
      passwordHash: await hashPassword('Demo1234!'),
    })
    .returning();
  trackedUserId = user.id;
  trackedToken = (await server.login(trackedEmail)).accessToken;
  demoToken = (await server.login('agent1@demo.test')).accessToken;
  other = await createClientWithUser(db);
});
afterAll(async () => {
  await server?.close();
});

/** Every page visit the tenant can see: no client filter, so row security alone decides. */
function visitsSeenBy(clientId: string) {
  return withTenant(server.database.db, clientId, (tx) => tx.select().from(pageVisits));
}

describe('page-visit tracker', () => {
  it('keeps a visit of a tracked client with its user and extra fields', async () => {
    const response = await server.request('POST', visitPath, {
      token: trackedToken,
      body: { pageName: '/customer-service/inbox', data_1: '?status=OPEN', data_3: 'third' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: true });
    const rows = await visitsSeenBy(trackedClientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      clientId: trackedClientId,
      userId: trackedUserId,
      pageName: '/customer-service/inbox',
      data1: '?status=OPEN',
      data2: null,
      data3: 'third',
      data4: null,
      data5: null,
    });
  });

  it('writes nothing for a client the tracker is off for', async () => {
    const response = await server.request('POST', visitPath, {
      token: demoToken,
      body: { pageName: '/customer-service/inbox' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: false });
    expect(await visitsSeenBy(server.demoClientId as string)).toHaveLength(0);
  });

  it("never shows a tracked client's visits to another client", async () => {
    const seenByOther = await visitsSeenBy(other.clientId);
    expect(seenByOther).toHaveLength(0);
    // The rows exist: the tracked tenant itself still sees them.
    expect((await visitsSeenBy(trackedClientId)).length).toBeGreaterThan(0);
  });

  it('refuses a body without a page name or with over-long fields, clearly', async () => {
    const post = (body: unknown) => server.request('POST', visitPath, { token: trackedToken, body });
    const missing = await post({ data_1: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ statusCode: 400, error: expect.any(String) });
    expect(String(missing.body.message)).toContain('pageName');
    const blank = await post({ pageName: '   ' });
    expect(blank.status).toBe(400);
    expect(String(blank.body.message)).toContain('pageName is required');
    const longData = await post({ pageName: '/x', data_5: 'y'.repeat(501) });
    expect(longData.status).toBe(400);
    expect(String(longData.body.message)).toContain('data_5');
    const longName = await post({ pageName: `/${'z'.repeat(200)}` });
    expect(longName.status).toBe(400);
    // Only the one good visit of the first test was kept.
    expect(await visitsSeenBy(trackedClientId)).toHaveLength(1);
  });

  it('needs a token for the post and for the switch', async () => {
    const post = await server.request('POST', visitPath, { body: { pageName: '/x' } });
    expect(post.status).toBe(401);
    const config = await server.request('GET', '/api/commerce/tracker/config');
    expect(config.status).toBe(401);
  });

  it("tells the web app whether tracking is on for the caller's client", async () => {
    const tracked = await server.request('GET', '/api/commerce/tracker/config', { token: trackedToken });
    expect(tracked.status).toBe(200);
    expect(tracked.body).toEqual({ enabled: true });
    const demo = await server.request('GET', '/api/commerce/tracker/config', { token: demoToken });
    expect(demo.body).toEqual({ enabled: false });
  });
});

describe('TRACKED_CLIENT_IDS', () => {
  it('is empty by default and refuses anything but client ids, naming the variable', () => {
    const dataDir = server.config.dataDir;
    expect(loadConfig({ DATA_DIR: dataDir }).TRACKED_CLIENT_IDS).toEqual([]);
    expect(() => loadConfig({ DATA_DIR: dataDir, TRACKED_CLIENT_IDS: 'toko-demo' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, TRACKED_CLIENT_IDS: 'toko-demo' })).toThrow(
      /TRACKED_CLIENT_IDS/,
    );
  });
});
