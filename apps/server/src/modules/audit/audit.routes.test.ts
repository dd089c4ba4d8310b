import {
  type AuditLogEntry,
  type AuditLogPage,
  auditErrorMessages,
  auditLogPageSize,
  auditTypes,
} from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let ownerToken: string;
let agentToken: string;
let other: { clientId: string; userId: string; email: string };
let otherToken: string;

beforeAll(async () => {
  server = await startTestServer();
  ownerToken = (await server.login('owner@demo.test')).accessToken;
  agentToken = (await server.login('agent1@demo.test')).accessToken;
  other = await createClientWithUser(server.database.db);
  otherToken = (await server.login(other.email)).accessToken;
});
afterAll(async () => {
  await server?.close();
});

const browserEvent = JSON.stringify({ version: '1.4.0', source: 'BROWSER', page: '/inbox' });

async function readPage(query = '', token = ownerToken) {
  return server.request<AuditLogPage>('GET', `/api/log/logs/byclient${query}`, { token });
}

/** Waits for a row the outbox jobs write after commit. */
async function waitForRow(
  match: (entry: AuditLogEntry) => boolean,
  token = ownerToken,
): Promise<AuditLogEntry> {
  return eventually(async () => (await readPage('', token)).body.content?.find(match), 10_000, {
    message: 'no such audit row',
  });
}

describe('client log post', () => {
  it('stores the event JSON with the caller and answers it', async () => {
    const posted = await server.request<AuditLogEntry>('POST', '/api/log/logs', {
      token: agentToken,
      body: { type: 'REQUEST_TIMING', event: browserEvent, result: 'OK' },
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({
      type: 'REQUEST_TIMING',
      result: 'OK',
      userEmail: 'agent1@demo.test',
    });
    const row = await waitForRow((entry) => entry.id === posted.body.id);
    expect(row.event).toMatchObject({ version: '1.4.0', source: 'BROWSER', page: '/inbox' });
    expect(row.userName).toBe('Agus Agen');
  });

  it('refuses an event that is not JSON, lacks its source, or is too large', async () => {
    const post = (event: string) =>
      server.request('POST', '/api/log/logs', { token: agentToken, body: { type: 'X', event, result: '' } });
    const notJson = await post('{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ statusCode: 400, message: auditErrorMessages.eventNotJson });
    const noSource = await post(JSON.stringify({ version: '1' }));
    expect(noSource.status).toBe(400);
    expect(String(noSource.body.message)).toContain('event.source');
    const large = await post(JSON.stringify({ version: '1', source: 'APP', pad: 'x'.repeat(9000) }));
    expect(large.status).toBe(400);
    expect(large.body.message).toBe(auditErrorMessages.eventTooLarge);
  });

  it('needs a token', async () => {
    const response = await server.request('POST', '/api/log/logs', {
      body: { type: 'X', event: browserEvent, result: '' },
    });
    expect(response.status).toBe(401);
  });
});

describe('reading the log', () => {
  it('records a sign-in', async () => {
    const { accessToken } = await server.login('agent2@demo.test');
    expect(accessToken).toBeTruthy();
    const row = await waitForRow(
      (entry) => entry.type === auditTypes.signIn && entry.userEmail === 'agent2@demo.test',
    );
    expect(row.result).toBe('SUCCESS');
  });

  it('records a user creation by its actor', async () => {
    const email = `audit-${Date.now().toString(36)}@demo.test`;
    const created = await server.request<{ id: string }>('POST', '/api/identity/admin-users', {
      token: ownerToken,
      body: {
        name: 'Audit Baru',
        email,
        password: 'Rahasia123',
        confirmPassword: 'Rahasia123',
        role: 'USC',
        csPosition: 'CS_2',
      },
    });
    expect(created.status).toBe(200);
    const row = await waitForRow(
      (entry) => entry.type === auditTypes.userCreated && entry.event.subjectId === created.body.id,
    );
    expect(row).toMatchObject({ userEmail: 'owner@demo.test', event: { name: 'Audit Baru' } });
  });

  it('records a role change and lists the types for the filter', async () => {
    const created = await server.request<{ id: string }>('POST', '/api/identity/feature-access', {
      token: ownerToken,
      body: { name: 'Audit', menus: ['CUSTOMER_SERVICE_INBOX'] },
    });
    expect(created.status).toBe(200);
    const row = await waitForRow(
      (entry) => entry.type === auditTypes.roleCreated && entry.event.subjectId === created.body.id,
    );
    expect(row).toMatchObject({ userEmail: 'owner@demo.test', event: { name: 'Audit' } });
    const types = await server.request<{ content: string[] }>('GET', '/api/log/logs/types', {
      token: ownerToken,
    });
    expect(types.body.content).toEqual(expect.arrayContaining([auditTypes.signIn, auditTypes.roleCreated]));
    const otherTypes = await server.request<{ content: string[] }>('GET', '/api/log/logs/types', {
      token: otherToken,
    });
    expect(otherTypes.body.content).not.toContain(auditTypes.roleCreated);
  });

  it('refuses an agent with 403 and records the refusal', async () => {
    const refused = await readPage('', agentToken);
    expect(refused.status).toBe(403);
    const ticketRefused = await server.request('GET', '/api/ticket/auditLogs', { token: agentToken });
    expect(ticketRefused.status).toBe(403);
    const row = await waitForRow(
      (entry) => entry.type === auditTypes.permissionDenied && entry.userEmail === 'agent1@demo.test',
    );
    expect(row).toMatchObject({
      result: 'FORBIDDEN',
      event: { method: 'GET', path: expect.stringMatching(/^\/api\//) },
    });
  });

  it('needs a token to read, download or use the ticket service path', async () => {
    for (const path of ['/api/log/logs/byclient', '/api/log/logs/download', '/api/ticket/auditLogs']) {
      expect((await server.request('GET', path)).status).toBe(401);
    }
  });

  it('refuses a range longer than 30 days with the limit text', async () => {
    const from = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const to = new Date().toISOString();
    const query = `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    for (const path of ['/api/log/logs/byclient', '/api/log/logs/download', '/api/ticket/auditLogs']) {
      const response = await server.request('GET', `${path}${query}`, {
        token: ownerToken,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, message: auditErrorMessages.rangeTooLong });
    }
  });

  it('never shows another client its rows, and filters by user and type', async () => {
    const demoRows = (await readPage()).body.content;
    expect(demoRows.length).toBeGreaterThan(0);
    const seenByOther = await readPage('', otherToken);
    expect(seenByOther.status).toBe(200);
    expect(seenByOther.body.content.some((entry) => demoRows.some((row) => row.id === entry.id))).toBe(false);
    const agentId = demoRows.find((row) => row.userEmail === 'agent1@demo.test')?.userId;
    const byDemoUser = await readPage(`?userId=${agentId}`, otherToken);
    expect(byDemoUser.body.content).toEqual([]);
    const cursorOfDemo = await readPage(`?cursor=${demoRows[0].id}`, otherToken);
    expect(cursorOfDemo.body.content).toEqual([]);

    const mine = await readPage(`?userId=${agentId}&type=${auditTypes.permissionDenied}`);
    expect(mine.body.content.length).toBeGreaterThan(0);
    expect(
      mine.body.content.every((row) => row.userId === agentId && row.type === auditTypes.permissionDenied),
    ).toBe(true);
    const ticketService = await server.request<AuditLogPage>('GET', '/api/ticket/auditLogs', {
      token: ownerToken,
    });
    expect(ticketService.body.content.map((row) => row.id)).toEqual(demoRows.map((row) => row.id));
  });

  it('pages newest first without gaps or repeats', async () => {
    const base = Date.now() - 60_000;
    await server.database.db.insert(auditLogs).values(
      Array.from({ length: auditLogPageSize + 7 }, (_, index) => ({
        clientId: other.clientId,
        userId: other.userId,
        type: 'PAGED',
        event: { index },
        result: 'OK',
        // Pairs share a timestamp, so the id has to break the tie.
        createdAt: new Date(base + Math.floor(index / 2) * 1000),
      })),
    );
    const first = await readPage('?type=PAGED', otherToken);
    expect(first.body.content).toHaveLength(auditLogPageSize);
    expect(first.body.nextCursor).not.toBeNull();
    const second = await readPage(`?type=PAGED&cursor=${first.body.nextCursor}`, otherToken);
    expect(second.body.content).toHaveLength(7);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.content, ...second.body.content];
    expect(new Set(all.map((row) => row.id)).size).toBe(auditLogPageSize + 7);
    const times = all.map((row) => Date.parse(row.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('download', () => {
  it('is CSV with a byte-order mark and neutralised formulas', async () => {
    await server.request('POST', '/api/log/logs', {
      token: ownerToken,
      body: { type: '=HYPERLINK("x")', event: browserEvent, result: '+1' },
    });
    const response = await fetch(`${server.url}/api/log/logs/download`, {
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split('\r\n')[0]).toBe('time,user,email,type,result,ip,event');
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain(",'+1,");
    expect(text).not.toMatch(/(^|,)[=+]/m);
  });

  it('refuses an agent', async () => {
    const response = await server.request('GET', '/api/log/logs/download', { token: agentToken });
    expect(response.status).toBe(403);
  });
});
