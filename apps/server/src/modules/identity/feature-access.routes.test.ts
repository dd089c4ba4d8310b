import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let ownerToken: string;
let other: { clientId: string; userId: string; email: string };

beforeAll(async () => {
  server = await startTestServer();
  ownerToken = (await server.login('owner@demo.test')).accessToken;
  other = await createClientWithUser(server.database.db);
});
afterAll(async () => {
  await server?.close();
});

type Group = {
  id: string;
  name: string;
  menus: string[];
  allMenus: boolean;
  permissionIndex: string;
  userCount: number;
};
const call = <Body = Group>(method: string, path: string, body?: unknown, token = ownerToken) =>
  server.request<Body>(method, path, { token, body });

describe('feature-access groups', () => {
  it('creates, finds by name, lists and refuses duplicate or bad names with the spec texts', async () => {
    const created = await call('POST', '/api/identity/feature-access', {
      name: 'Gudang',
      menus: ['CUSTOMER_SERVICE_INBOX', 'VIEW_FEATURE'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Gudang', allMenus: false, userCount: 0 });
    expect(created.body.menus.sort()).toEqual(['CUSTOMER_SERVICE_INBOX', 'VIEW_FEATURE']);
    expect(created.body.permissionIndex.charAt(1)).toBe('1');

    const detail = await call('GET', '/api/identity/feature-access/detail?name=gudang');
    expect(detail.body.id).toBe(created.body.id);
    const list = await call<{ content: Group[] }>('GET', '/api/identity/feature-access/list?isDeleted=false');
    expect(list.body.content.map((group) => group.name)).toContain('Gudang');

    expect((await call('POST', '/api/identity/feature-access', { name: 'GUDANG' })).body).toMatchObject({
      statusCode: 400,
      message: 'Role name already exists',
    });
    expect((await call('POST', '/api/identity/feature-access', { name: '  ' })).body).toMatchObject({
      message: 'Name is Required',
    });
    expect(
      (await call('POST', '/api/identity/feature-access', { name: 'Sixteen chars xx' })).body,
    ).toMatchObject({
      message: 'Max 15 Characters',
    });
  });

  it('opens every menu with the all-menus toggle', async () => {
    const all = await call('POST', '/api/identity/feature-access', { name: 'Semua', allMenus: true });
    expect(all.body.allMenus).toBe(true);
    expect(all.body.menus).toEqual(
      expect.arrayContaining(['SETTING_ADMIN', 'VIEW_FEATURE', 'CS_PERFORMANCE']),
    );
  });

  it("hands a group's changes to its users, who get them at their next refresh", async () => {
    const group = await call('POST', '/api/identity/feature-access', {
      name: 'Pengawas',
      menus: ['CUSTOMER_SERVICE_INBOX'],
    });
    const email = `fa-${Date.now().toString(36)}@demo.test`;
    const user = await call<{ id: string }>('POST', '/api/identity/admin-users', {
      name: 'Pengawas Satu',
      email,
      password: 'Rahasia123',
      confirmPassword: 'Rahasia123',
      role: 'USC',
      csPosition: 'SUPERVISOR_2',
      featuresAccessName: 'Pengawas',
    });
    expect(user.status).toBe(200);
    const pair = await server.login(email, 'Rahasia123');
    const me = async (token: string) =>
      (
        await server.request<{
          featuresAccessName: string;
          featuresAccessPermissions: { userPermissionIndex: string };
        }>('GET', '/api/identity/users/me', { token })
      ).body;
    expect((await me(pair.accessToken)).featuresAccessPermissions.userPermissionIndex.charAt(15)).toBe('0');

    const renamed = await call('PUT', `/api/identity/feature-access/${group.body.id}`, {
      name: 'Kepala CS',
      menus: ['CUSTOMER_SERVICE_INBOX', 'SETTING_ADMIN'],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.userCount).toBe(1);

    const refreshed = await server.request<{ accessToken: string }>(
      'POST',
      '/api/identity/auth/refresh-access',
      {
        body: { refreshToken: pair.refreshToken },
      },
    );
    const after = await me(refreshed.body.accessToken);
    expect(after.featuresAccessName).toBe('Kepala CS');
    expect(after.featuresAccessPermissions.userPermissionIndex.charAt(15)).toBe('1');
    // The new bit opens the admin API to the group's user.
    expect(
      (await call('GET', '/api/identity/admin-users', undefined, refreshed.body.accessToken)).status,
    ).toBe(200);

    const inUse = await call('DELETE', `/api/identity/feature-access/${group.body.id}`);
    expect(inUse.status).toBe(400);
    expect(inUse.body).toMatchObject({ message: 'Role is used by a user and cannot be removed' });

    await call('DELETE', `/api/identity/admin-users/${user.body.id}`);
    expect((await call('DELETE', `/api/identity/feature-access/${group.body.id}`)).status).toBe(200);
    const deleted = await call<{ content: Group[] }>(
      'GET',
      '/api/identity/feature-access/list?isDeleted=true',
    );
    expect(deleted.body.content.map((row) => row.id)).toContain(group.body.id);
    expect((await call('GET', '/api/identity/feature-access/detail?name=Kepala%20CS')).status).toBe(404);
  });

  it('answers 401 without a token, 403 for an agent, 404 for another client', async () => {
    expect((await server.request('GET', '/api/identity/feature-access/list')).status).toBe(401);
    const agent = (await server.login('agent1@demo.test')).accessToken;
    expect((await call('GET', '/api/identity/feature-access/list', undefined, agent)).status).toBe(403);
    expect((await call('POST', '/api/identity/feature-access', { name: 'X' }, agent)).status).toBe(403);

    const otherToken = (await server.login(other.email)).accessToken;
    const foreign = await call('POST', '/api/identity/feature-access', { name: 'Rahasia' }, otherToken);
    expect(
      (await call('PUT', `/api/identity/feature-access/${foreign.body.id}`, { name: 'Curi' })).status,
    ).toBe(404);
    expect((await call('DELETE', `/api/identity/feature-access/${foreign.body.id}`)).status).toBe(404);
    expect((await call('GET', '/api/identity/feature-access/detail?name=Rahasia')).status).toBe(404);
  });
});
