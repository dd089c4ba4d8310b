import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGroups, clients, tickets } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { createConversation } from '../../test/inbox-factories';
import { openSocket } from '../../test/socket-client';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let ownerToken: string;
let other: { clientId: string; userId: string; email: string };
let sequence = 0;

const uniqueEmail = () => `new-${Date.now().toString(36)}-${++sequence}@demo.test`;
const agentBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Nina Baru',
  email: uniqueEmail(),
  password: 'Rahasia123',
  confirmPassword: 'Rahasia123',
  role: 'USC',
  csPosition: 'CS_2',
  ...overrides,
});

beforeAll(async () => {
  server = await startTestServer();
  ownerToken = (await server.login('owner@demo.test')).accessToken;
  other = await createClientWithUser(server.database.db);
});
afterAll(async () => {
  await server?.close();
});

const call = <Body = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token = ownerToken,
) => server.request<Body>(method, path, { token, body });

describe('adding users', () => {
  it('adds an agent who can then sign in, with groups and CS tags', async () => {
    const [group] = await server.database.db
      .insert(agentGroups)
      .values({ clientId: server.demoClientId!, name: 'Penjualan' })
      .returning();
    const body = agentBody({ agentGroupIds: [group.id], csTags: ['vip', 'retur'] });
    const created = await call<{ id: string; csPosition: string; agentGroupIds: string[]; csTags: string[] }>(
      'POST',
      '/api/identity/admin-users',
      body,
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      csPosition: 'CS_2',
      agentGroupIds: [group.id],
      csTags: ['vip', 'retur'],
    });

    const list = await call<{ content: Array<{ email: string; agentGroupIds: string[] }> }>(
      'GET',
      `/api/identity/admin-users?search=${encodeURIComponent(body.email)}`,
    );
    expect(list.body.content).toEqual([
      expect.objectContaining({ email: body.email, agentGroupIds: [group.id] }),
    ]);
    expect((await server.login(body.email, 'Rahasia123')).accessToken).toEqual(expect.any(String));
  });

  it('answers the spec texts for bad input', async () => {
    const post = (overrides: Record<string, unknown>) =>
      call('POST', '/api/identity/admin-users', agentBody(overrides));
    expect((await post({ name: ' ' })).body).toMatchObject({ statusCode: 400, message: 'Name is Required' });
    expect((await post({ email: 'not-an-email' })).body).toMatchObject({ message: 'Invalid email' });
    expect((await post({ email: 'agent1@demo.test' })).body).toMatchObject({
      message: 'Email already registered',
    });
    // A person of another client becomes a member here instead: client-membership.routes.test.ts.
    expect((await post({ confirmPassword: 'Lain12345' })).body).toMatchObject({
      message: 'Password is not match',
    });
    expect((await post({ password: 'short', confirmPassword: 'short' })).body).toMatchObject({
      message: expect.stringContaining('at least 8 characters'),
    });
    expect((await post({ csPosition: null })).body).toMatchObject({
      message: 'CS position is required for a role with inbox access',
    });
    expect((await post({ featuresAccessName: 'Nope' })).body).toMatchObject({ message: 'Role not found' });
  });

  it('lets only the owner make an admin', async () => {
    const { accessToken } = await server.login('admin@demo.test');
    const byAdmin = await call('POST', '/api/identity/admin-users', agentBody({ role: 'ADC' }), accessToken);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toMatchObject({ message: 'Only the owner can make an admin' });
    const byOwner = await call(
      'POST',
      '/api/identity/admin-users',
      agentBody({ role: 'ADC', csPosition: 'SUPERVISOR_2' }),
    );
    expect(byOwner.status).toBe(200);
  });

  it('stops at the plan user limit', async () => {
    const small = await createClientWithUser(server.database.db);
    await server.database.db.update(clients).set({ userLimit: 2 }).where(eq(clients.id, small.clientId));
    const token = (await server.login(small.email)).accessToken;
    expect((await call('POST', '/api/identity/admin-users', agentBody(), token)).status).toBe(200);
    const third = await call('POST', '/api/identity/admin-users', agentBody(), token);
    expect(third.status).toBe(400);
    expect(third.body).toMatchObject({
      message: 'Cannot add a new user because it has reached the maximum limit',
    });
    // An inactive user does not count, and cannot be switched on past the limit either.
    const idle = await call<{ id: string }>(
      'POST',
      '/api/identity/admin-users',
      agentBody({ status: 'INACTIVE' }),
      token,
    );
    expect(idle.status).toBe(200);
    const activate = await call(
      'PUT',
      `/api/identity/admin-users/${idle.body.id}`,
      agentBody({ status: 'ACTIVE' }),
      token,
    );
    expect(activate.body).toMatchObject({
      message: 'Cannot add a new user because it has reached the maximum limit',
    });
  });
});

describe('editing users', () => {
  it('changes the role and position, and requires an empty position without inbox access', async () => {
    const created = await call<{ id: string }>('POST', '/api/identity/admin-users', agentBody());
    const groupBody = { name: `NoInbox${sequence}`, menus: ['SETTING_STORE'] };
    expect((await call('POST', '/api/identity/feature-access', groupBody)).status).toBe(200);
    const edit = (overrides: Record<string, unknown>) =>
      call<{ csPosition: string | null; featuresAccessName: string | null }>(
        'PUT',
        `/api/identity/admin-users/${created.body.id}`,
        agentBody({ password: undefined, confirmPassword: undefined, ...overrides }),
      );
    expect((await edit({ featuresAccessName: groupBody.name })).body).toMatchObject({
      message: 'CS position must be empty for a role without inbox access',
    });
    const saved = await edit({ featuresAccessName: groupBody.name, csPosition: null });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ csPosition: null, featuresAccessName: groupBody.name });
  });

  it('never edits, demotes or deletes the owner', async () => {
    const { accessToken } = await server.login('admin@demo.test');
    const owner = (
      await call<{ content: Array<{ id: string; role: string }> }>('GET', '/api/identity/admin-users')
    ).body.content.find((user) => user.role === 'OWN')!;
    const demote = await call('PUT', `/api/identity/admin-users/${owner.id}`, agentBody(), accessToken);
    expect(demote.status).toBe(403);
    expect(demote.body).toMatchObject({ message: 'The owner cannot be deleted or changed' });
    expect(
      (await call('DELETE', `/api/identity/admin-users/${owner.id}`, undefined, accessToken)).status,
    ).toBe(403);
  });
});

describe('deleting users', () => {
  it('refuses while the user has open chats, then deletes, signs them out and refuses sign-in', async () => {
    const body = agentBody();
    const created = await call<{ id: string }>('POST', '/api/identity/admin-users', body);
    const pair = await server.login(body.email, body.password);
    const live = await openSocket(`${server.url.replace(/^http/, 'ws')}/ws?token=${pair.accessToken}`);
    await live.next((message) => message.type === 'hello');

    const { ticket } = await createConversation(server.database.db, {
      clientId: server.demoClientId!,
      ticket: { status: 'ASSIGNED', assigneeId: created.body.id },
    });
    const refused = await call('DELETE', `/api/identity/admin-users/${created.body.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: 'Failed to delete user. Please resolve the chat to delete user.',
    });

    // Resolving the chat belongs to the inbox; here the row is simply closed.
    await server.database.db.update(tickets).set({ status: 'CLOSED' }).where(eq(tickets.id, ticket.id));
    const deleted = await call('DELETE', `/api/identity/admin-users/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(await live.closed).toBe(4401);

    const signIn = await server.request('POST', '/api/identity/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ message: 'User is inactive or has been deleted' });
    const refresh = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: pair.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const list = await call<{ content: Array<{ id: string }> }>('GET', '/api/identity/admin-users');
    expect(list.body.content.map((user) => user.id)).not.toContain(created.body.id);
  });

  it("gives a deleted user's e-mail to someone new, who signs in with their own password", async () => {
    const body = agentBody();
    const first = await call<{ id: string }>('POST', '/api/identity/admin-users', body);
    expect((await call('DELETE', `/api/identity/admin-users/${first.body.id}`)).status).toBe(200);

    const again = await call<{ id: string }>(
      'POST',
      '/api/identity/admin-users',
      agentBody({ email: body.email.toUpperCase(), password: 'Baru12345', confirmPassword: 'Baru12345' }),
    );
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    const old = await server.request('POST', '/api/identity/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(old.status).toBe(401);
    const signIn = await server.login(body.email, 'Baru12345');
    expect(signIn.accessToken).toBeTruthy();
    // While the new user lives, the e-mail is taken again.
    const taken = await call('POST', '/api/identity/admin-users', agentBody({ email: body.email }));
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ message: 'Email already registered' });
  });
});

describe('access', () => {
  it('answers 401 without a token, 403 for an agent, 404 for another client', async () => {
    expect((await server.request('GET', '/api/identity/admin-users')).status).toBe(401);
    const agent = (await server.login('agent1@demo.test')).accessToken;
    const forbidden = await call('GET', '/api/identity/admin-users', undefined, agent);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ message: 'You have no permission to access this menu.' });
    expect((await call('POST', '/api/identity/admin-users', agentBody(), agent)).status).toBe(403);

    expect((await call('PUT', `/api/identity/admin-users/${other.userId}`, agentBody())).status).toBe(404);
    expect((await call('DELETE', `/api/identity/admin-users/${other.userId}`)).status).toBe(404);
    const list = await call<{ content: Array<{ email: string }> }>('GET', '/api/identity/admin-users');
    expect(list.body.content.map((user) => user.email)).not.toContain(other.email);
  });
});
