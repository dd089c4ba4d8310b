import type { ClientMembershipListResponse, LoginResponse, MeResponse } from '@app/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { demoBranch } from './demo-seed';

let server: TestServer;
let homeId: string;
let branchId: string;

const decodeClaims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as {
    clientId: string;
    uid: string;
    enableMultiClient?: boolean;
  };

async function clientId(slug: string): Promise<string> {
  const [row] = await server.database.db.select().from(clients).where(eq(clients.slug, slug));
  return row.id;
}

async function switchTo(token: string, targetClientId: string) {
  return server.request<LoginResponse & { message?: string }>('POST', '/api/identity/users/switch-client', {
    token,
    body: { clientId: targetClientId },
  });
}

/**
 * A new person (the holder of a new client) who also has a membership row in the branch;
 * `row` overrides the membership row's fields (a deleted one, say).
 */
async function personWithBranchRow(row: Partial<typeof users.$inferInsert> = {}) {
  const person = await createClientWithUser(server.database.db);
  const [holder] = await server.database.db.select().from(users).where(eq(users.id, person.userId));
  await server.database.db.insert(users).values({
    clientId: branchId,
    email: holder.email,
    name: holder.name,
    role: 'USC',
    csPosition: 'CS_1',
    passwordHash: '!',
    sharedLoginUserId: holder.id,
    ...row,
  });
  return person;
}

/** Customer names of the tickets the token's client shows in its ticket table. */
async function ticketNames(token: string): Promise<string[]> {
  const today = new Date();
  const from = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10);
  const response = await server.request<{ content: Array<{ customer: { name: string } }> }>(
    'GET',
    `/api/ticket/ticket/list?startDate=${from}&endDate=${to}&pageSize=100`,
    { token },
  );
  expect(response.status).toBe(200);
  return response.body.content.map((ticket) => ticket.customer.name);
}

beforeAll(async () => {
  server = await startTestServer();
  homeId = await clientId('toko-demo');
  branchId = await clientId(demoBranch.slug);
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/identity/users/clients', () => {
  it('lists the home client first and the branch, marking the current one', async () => {
    const { accessToken } = await server.login('owner@demo.test');
    const response = await server.request<ClientMembershipListResponse>(
      'GET',
      '/api/identity/users/clients',
      {
        token: accessToken,
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.content).toEqual([
      { id: homeId, name: 'Toko Demo', role: 'OWN', current: true },
      { id: branchId, name: demoBranch.name, role: 'OWN', current: false },
    ]);
  });

  it('says enableMultiClient on sign-in and users/me only for people with several clients', async () => {
    const owner = await server.request<LoginResponse>('POST', '/api/identity/auth/login', {
      body: { email: 'owner@demo.test', password: 'Demo1234!' },
    });
    expect(owner.body.enableMultiClient).toBe(true);
    const me = await server.request<MeResponse>('GET', '/api/identity/users/me', {
      token: owner.body.accessToken,
    });
    expect(me.body.enableMultiClient).toBe(true);
    // The flag travels in the token: a refreshed one carries it too, counted again.
    const refreshed = await server.request<{ accessToken: string }>(
      'POST',
      '/api/identity/auth/refresh-access',
      {
        body: { refreshToken: owner.body.refreshToken },
      },
    );
    expect(decodeClaims(refreshed.body.accessToken)).toMatchObject({ enableMultiClient: true });
    const admin = await server.request<LoginResponse>('POST', '/api/identity/auth/login', {
      body: { email: 'admin@demo.test', password: 'Demo1234!' },
    });
    expect(admin.body.enableMultiClient).toBe(false);
    const adminMe = await server.request<MeResponse>('GET', '/api/identity/users/me', {
      token: admin.body.accessToken,
    });
    expect(adminMe.body.enableMultiClient).toBe(false);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/api/identity/users/clients')).status).toBe(401);
    const response = await server.request('POST', '/api/identity/users/switch-client', {
      body: { clientId: branchId },
    });
    expect(response.status).toBe(401);
  });
});

describe('POST /api/identity/users/switch-client', () => {
  it('opens a session in the branch, ends the old one, and keeps each inbox to its client', async () => {
    const home = await server.login('owner@demo.test');
    const homeTickets = await ticketNames(home.accessToken);
    expect(homeTickets.length).toBeGreaterThan(0);

    const switched = await switchTo(home.accessToken, branchId);
    expect(switched.status).toBe(200);
    expect(decodeClaims(switched.body.accessToken).clientId).toBe(branchId);
    expect(switched.body.enableMultiClient).toBe(true);

    const me = await server.request<MeResponse>('GET', '/api/identity/users/me', {
      token: switched.body.accessToken,
    });
    expect(me.body.client.id).toBe(branchId);
    expect(me.body.user.role).toBe('OWN');
    const [row] = await server.database.db
      .select()
      .from(users)
      .where(and(eq(users.clientId, branchId), eq(users.email, 'owner@demo.test')));
    expect(me.body.user.id).toBe(row.id);

    const refreshOld = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: home.refreshToken },
    });
    expect(refreshOld.status).toBe(401);

    const branchTickets = await ticketNames(switched.body.accessToken);
    expect([...branchTickets].sort()).toEqual(demoBranch.customers.map((customer) => customer.name).sort());
    expect(branchTickets.some((name) => homeTickets.includes(name))).toBe(false);
    expect(homeTickets.some((name) => branchTickets.includes(name))).toBe(false);

    const back = await switchTo(switched.body.accessToken, homeId);
    expect(back.status).toBe(200);
    expect(decodeClaims(back.body.accessToken).clientId).toBe(homeId);
    expect(await ticketNames(back.body.accessToken)).toEqual(homeTickets);
  });

  it('answers 404 for a client the person has no row in', async () => {
    const other = await createClientWithUser(server.database.db);
    const { accessToken } = await server.login('owner@demo.test');
    const response = await switchTo(accessToken, other.clientId);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, message: 'You have no account in this client' });
    expect((await switchTo(accessToken, 'not-a-uuid')).status).toBe(400);
  });

  it('answers 403 for a deleted membership row', async () => {
    const person = await personWithBranchRow({ status: 'INACTIVE', deletedAt: new Date() });
    const { accessToken } = await server.login(person.email);
    const response = await switchTo(accessToken, branchId);
    expect(response.status).toBe(403);
    expect(response.body.message).toBe('User is inactive or has been deleted');
  });
});

describe('credentials of a membership row', () => {
  it("changes the holder's password and ends every session of the person", async () => {
    const person = await personWithBranchRow();
    const home = await server.login(person.email);
    const branch = await switchTo((await server.login(person.email)).accessToken, branchId);
    expect(branch.status).toBe(200);

    const changed = await server.request('PUT', '/api/identity/users/changePassword', {
      token: branch.body.accessToken,
      body: { currentPassword: 'Demo1234!', newPassword: 'Baru12345', confirmPassword: 'Baru12345' },
    });
    expect(changed.status).toBe(200);
    for (const refreshToken of [home.refreshToken, branch.body.refreshToken]) {
      const refreshed = await server.request('POST', '/api/identity/auth/refresh-access', {
        body: { refreshToken },
      });
      expect(refreshed.status).toBe(401);
    }
    const oldPassword = await server.request('POST', '/api/identity/auth/login', {
      body: { email: person.email, password: 'Demo1234!' },
    });
    expect(oldPassword.status).toBe(401);
    const signedIn = await server.login(person.email, 'Baru12345');
    expect(decodeClaims(signedIn.accessToken).clientId).toBe(person.clientId);
  });

  it('a forgotten-password reset ends the sessions of the membership rows too', async () => {
    const person = await personWithBranchRow();
    const home = await server.login(person.email);
    const branch = await switchTo((await server.login(person.email)).accessToken, branchId);
    expect(branch.status).toBe(200);

    const reset = (path: string, body: unknown) =>
      server.request('POST', `/api/identity/users/resetPassword/${path}`, { body });
    expect((await reset('request', { email: person.email })).status).toBe(200);
    let code: string | undefined;
    for (let tries = 0; tries < 100 && !code; tries += 1) {
      const mailbox = await server.request<{ content: Array<{ recipient: string; text: string }> }>(
        'GET',
        '/api/identity/mailbox',
        { token: home.accessToken },
      );
      code = /\b(\d{6})\b/.exec(
        mailbox.body.content.find((mail) => mail.recipient === person.email)?.text ?? '',
      )?.[1];
      if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const validated = await reset('validate', { email: person.email, code });
    const { resetToken } = validated.body as { resetToken: string };
    expect(
      (await reset('confirm', { resetToken, newPassword: 'Lupa12345', confirmPassword: 'Lupa12345' })).status,
    ).toBe(200);
    const refreshed = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: branch.body.refreshToken },
    });
    expect(refreshed.status).toBe(401);
  });
});

describe('adding a person of another client from the admin screen', () => {
  it('makes a membership row without a password, mails the person, and deletes only that row', async () => {
    const person = await createClientWithUser(server.database.db);
    const owner = (await server.login('owner@demo.test')).accessToken;
    const body = { name: 'Tamu Cabang', email: person.email.toUpperCase(), role: 'USC', csPosition: 'CS_1' };
    const created = await server.request<{ id: string; email: string }>('POST', '/api/identity/admin-users', {
      token: owner,
      body,
    });
    expect(created.status).toBe(200);
    expect(created.body.email).toBe(person.email);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, created.body.id));
    expect(row).toMatchObject({ clientId: homeId, sharedLoginUserId: person.userId, passwordHash: '!' });

    const again = await server.request('POST', '/api/identity/admin-users', { token: owner, body });
    expect(again.body).toMatchObject({ statusCode: 400, message: 'Email already registered' });

    const mailbox = await server.request<{ content: Array<{ recipient: string; subject: string }> }>(
      'GET',
      '/api/identity/mailbox',
      { token: owner },
    );
    expect(mailbox.body.content).toContainEqual(
      expect.objectContaining({ recipient: person.email, subject: expect.stringContaining('Toko Demo') }),
    );

    const signedIn = await server.login(person.email);
    const listed = await server.request<ClientMembershipListResponse>('GET', '/api/identity/users/clients', {
      token: signedIn.accessToken,
    });
    expect(listed.body.content.map((client) => client.id)).toEqual([person.clientId, homeId]);

    const removed = await server.request('DELETE', `/api/identity/admin-users/${created.body.id}`, {
      token: owner,
    });
    expect(removed.status).toBe(200);
    const [holder] = await server.database.db.select().from(users).where(eq(users.id, person.userId));
    expect(holder.deletedAt).toBeNull();
    const afterDelete = await server.login(person.email);
    const left = await server.request<ClientMembershipListResponse>('GET', '/api/identity/users/clients', {
      token: afterDelete.accessToken,
    });
    expect(left.body.content.map((client) => client.id)).toEqual([person.clientId]);
    expect((await switchTo(afterDelete.accessToken, homeId)).status).toBe(403);
  });

  it('still asks a password of a new person', async () => {
    const owner = (await server.login('owner@demo.test')).accessToken;
    const response = await server.request('POST', '/api/identity/admin-users', {
      token: owner,
      body: { name: 'Orang Baru', email: `baru-${Date.now()}@demo.test`, role: 'USC', csPosition: 'CS_1' },
    });
    expect(response.status).toBe(400);
  });
});
