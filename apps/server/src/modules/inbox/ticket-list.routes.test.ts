import { randomUUID } from 'node:crypto';
import type { TicketListResponse } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../test/demo-staff';
import { createClientWithUser } from '../../test/factories';
import { createChannelAccount, createConversation } from '../../test/inbox-factories';
import type { TestServer } from '../../test/test-server';
import { idsOf, type ListQuery, listTickets } from './ticket-list.fixtures';

let server: TestServer;
let clientId: string;
let userIds: Record<string, string>;
let tokens: Record<string, string>;
let other: { clientId: string; userId: string; email: string };
let foreignTicketId: number;
/** The filter tests' tickets live in 2020, so nothing else the database holds is in range. */
const year2020 = { createdFrom: '2020-01-01T00:00:00.000Z', createdTo: '2020-12-31T23:59:59.999Z' };
const groupId = randomUUID();
const categoryId = randomUUID();
const ids: Record<'budi' | 'siti' | 'joko' | 'dewi' | 'agus', number> = {} as never;

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ({ server, clientId, userIds, tokens } = await startDemoServer(['owner', 'agent1', 'agent2']));
  const db = server.database.db;
  const liveChat = await createChannelAccount(db, clientId, { channel: 'LVC' });
  const whatsApp = await createChannelAccount(db, clientId, { channel: 'WAP' });

  const budi = await createConversation(db, {
    clientId,
    channelAccount: whatsApp,
    customer: { name: 'Budi Santoso', phone: '+6281234567890', email: 'budi@example.com' },
    ticket: {
      status: 'ASSIGNED',
      assigneeId: userIds.agent1,
      tags: ['vip', 'promo'],
      priority: 1,
      subject: 'Refund order',
      groupId,
      createdBy: userIds.owner,
      createdAt: at('2020-03-10T03:00:00Z'),
      lastMessageAt: at('2020-03-10T05:00:00Z'),
    },
  });
  const siti = await createConversation(db, {
    clientId,
    channelAccount: liveChat,
    customer: { name: 'Siti Aminah', phone: '+628555000111' },
    ticket: {
      tags: ['promo'],
      expiresAt: at('2020-03-12T03:00:00Z'),
      createdAt: at('2020-03-11T03:00:00Z'),
      lastMessageAt: at('2020-03-11T03:00:00Z'),
    },
  });
  const joko = await createConversation(db, {
    clientId,
    channelAccount: liveChat,
    customer: { name: 'Joko Susilo' },
    ticket: {
      status: 'CLOSED',
      assigneeId: userIds.agent2,
      closedBy: userIds.agent2,
      closedAt: at('2020-03-12T10:00:00Z'),
      remarks: 'Pelanggan puas',
      categoryId,
      createdAt: at('2020-03-05T03:00:00Z'),
      lastMessageAt: at('2020-03-12T10:00:00Z'),
    },
  });
  const dewi = await createConversation(db, {
    clientId,
    channelAccount: liveChat,
    customer: { name: 'Dewi Lestari' },
    ticket: {
      status: 'RESOLVED',
      assigneeId: userIds.agent1,
      closedBy: userIds.owner,
      closedAt: at('2020-03-13T10:00:00Z'),
      createdAt: at('2020-03-06T03:00:00Z'),
      lastMessageAt: at('2020-03-13T10:00:00Z'),
    },
  });
  const agus = await createConversation(db, {
    clientId,
    channelAccount: liveChat,
    customer: { name: 'Agus Salim' },
    ticket: {
      status: 'ASSIGNED',
      assigneeId: userIds.agent2,
      priority: 2,
      createdAt: at('2020-03-12T03:00:00Z'),
      lastMessageAt: at('2020-03-14T03:00:00Z'),
    },
    messages: [{ text: 'Halo, saya mau tanya ongkir ke Bandung' }],
  });
  Object.assign(ids, {
    budi: budi.ticket.id,
    siti: siti.ticket.id,
    joko: joko.ticket.id,
    dewi: dewi.ticket.id,
    agus: agus.ticket.id,
  });

  other = await createClientWithUser(db);
  const foreign = await createConversation(db, {
    clientId: other.clientId,
    customer: { name: 'Budi Foreign', phone: '+6281234567890' },
    ticket: { createdAt: at('2020-03-10T04:00:00Z') },
    messages: [{ text: 'ongkir ke Bandung berapa' }],
  });
  foreignTicketId = foreign.ticket.id;
});
afterAll(async () => {
  await server?.close();
});

const list = (who: string, query: ListQuery = {}, path?: string) =>
  listTickets(server, tokens[who], year2020, query, path);
const named = (...names: Array<keyof typeof ids>) => names.map((name) => ids[name]);

describe('GET /api/ticket/ticket/list filters', () => {
  it('lists every ticket of the range newest first by default', async () => {
    const response = await list('owner');
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(named('agus', 'siti', 'budi', 'dewi', 'joko'));
    expect(response.nextCursor).toBeNull();
    expect(response.content[0]).toMatchObject({ mediaPlatform: 'LVC', customer: { name: 'Agus Salim' } });
  });

  it.each([
    ['customer name, any case', { customerInfo: 'budi' }, ['budi']],
    ['customer phone, partial', { customerInfo: '8123' }, ['budi']],
    ['customer phone, written locally', { customerInfo: '0812 3456 7890' }, ['budi']],
    ['customer e-mail', { customerInfo: 'budi@exa' }, ['budi']],
    ['one tag', { tags: 'vip' }, ['budi']],
    ['any of several tags', { tags: 'vip,promo' }, ['siti', 'budi']],
    [
      'created range',
      { createdFrom: '2020-03-10T00:00:00Z', createdTo: '2020-03-11T23:59:59Z' },
      ['siti', 'budi'],
    ],
    ['closed range', { closedFrom: '2020-03-13T00:00:00Z', closedTo: '2020-03-13T23:59:59Z' }, ['dewi']],
    ['remarks', { remarksOrSubject: 'PUAS' }, ['joko']],
    ['subject', { remarksOrSubject: 'refund' }, ['budi']],
    ['a LIKE wildcard is literal', { remarksOrSubject: '%' }, []],
    ['channel', { mediaPlatform: 'WAP' }, ['budi']],
    ['agent', { csId: 'agent2' }, ['agus', 'joko']],
    ['closed by', { closedBy: 'owner' }, ['dewi']],
    ['created by', { createdBy: 'owner' }, ['budi']],
    ['group', { csGroup: groupId }, ['budi']],
    ['status closed', { status: 'CLOSED' }, ['joko']],
    ['closed or resolved', { status: 'CLOSED,RESOLVED' }, ['dewi', 'joko']],
    ['unassigned', { status: 'UNASSIGNED' }, ['siti']],
    ['expired', { status: 'EXPIRED' }, ['siti']],
    ['assigned or expired', { status: 'ASSIGNED,EXPIRED' }, ['agus', 'siti', 'budi']],
    ['priority', { priority: '1,2' }, ['agus', 'budi']],
    ['category', { categoryId }, ['joko']],
    ['keyword in a message', { keyword: 'ongkir' }, ['agus']],
    ['keyword in a name', { keyword: 'santoso' }, ['budi']],
    ['keyword in a phone number', { keyword: '4567' }, ['budi']],
    ['keyword a phone number written locally', { keyword: '0812-3456-7890' }, ['budi']],
    ['several filters together', { tags: 'promo', status: 'ASSIGNED' }, ['budi']],
  ] as const)('narrows by %s', async (_label, query, expected) => {
    const resolved = Object.fromEntries(
      Object.entries(query).map(([key, value]) => [key, userIds[value as string] ?? value]),
    );
    const response = await list('owner', resolved);
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(named(...(expected as unknown as Array<keyof typeof ids>)));
  });

  it('refuses a malformed filter or cursor with a 400 error object', async () => {
    const badStatus = await list('owner', { status: 'OPEN' });
    expect(badStatus).toMatchObject({ status: 400, statusCode: 400, error: 'Bad Request' });
    const badCursor = await list('owner', { cursor: 'bm90LWEtY3Vyc29y' });
    expect(badCursor).toMatchObject({ status: 400, message: 'Invalid cursor' });
  });
});

describe('the list page on the wire', () => {
  it('goes gzipped to a browser and plain to a client that does not ask, the same page either way', async () => {
    const path = `/api/ticket/ticket/list?${new URLSearchParams({ ...year2020, pageSize: '100' })}`;
    const asBrowser = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${tokens.owner}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(asBrowser.headers.get('content-encoding')).toBe('gzip');
    expect(asBrowser.headers.get('vary')).toBe('Accept-Encoding');
    const plain = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${tokens.owner}`, 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const [zipped, asIs] = [await asBrowser.text(), await plain.text()];
    expect(zipped).toBe(asIs);
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(asIs));
    expect(Number(asBrowser.headers.get('content-length'))).toBeLessThan(Buffer.byteLength(asIs) / 2);
  });
});

describe('GET /api/csp/chatRoom (the inbox)', () => {
  const inbox = (who: 'owner' | 'agent1', query: Record<string, string>) =>
    list(who, query, '/api/csp/chatRoom').then(idsOf);

  it('shows open chats by latest activity, and the tabs', async () => {
    const inbox = await list('owner', {}, '/api/csp/chatRoom');
    expect(inbox.status).toBe(200);
    expect(idsOf(inbox)).toEqual(named('agus', 'siti', 'budi'));
    const mine = await list('agent1', { tab: 'mine' }, '/api/csp/chatRoom');
    expect(idsOf(mine)).toEqual(named('budi'));
    const queue = await list('agent1', { tab: 'unassigned' }, '/api/csp/chatRoom');
    expect(idsOf(queue)).toEqual(named('siti'));
  });

  it('narrows the inbox by channel on every branch: statuses, the queue and own chats', async () => {
    expect(await inbox('owner', { mediaPlatform: 'WAP' })).toEqual(named('budi'));
    expect(await inbox('owner', { mediaPlatform: 'LVC' })).toEqual(named('agus', 'siti'));
    expect(await inbox('owner', { mediaPlatform: 'LVC,WAP' })).toEqual(named('agus', 'siti', 'budi'));
    expect(await inbox('owner', { mediaPlatform: 'IGM' })).toEqual([]);
    expect(await inbox('agent1', { tab: 'mine', mediaPlatform: 'WAP' })).toEqual(named('budi'));
    expect(await inbox('agent1', { tab: 'mine', mediaPlatform: 'LVC' })).toEqual([]);
    expect(await inbox('agent1', { mediaPlatform: 'LVC' })).toEqual(named('siti'));
  });

  it('narrows the inbox by agent, in any status, and only within what the caller may see', async () => {
    expect(await inbox('owner', { csId: userIds.agent2 })).toEqual(named('agus'));
    expect(await inbox('owner', { csId: userIds.agent1 })).toEqual(named('budi'));
    expect(await inbox('owner', { csId: `${userIds.agent1},${userIds.agent2}` })).toEqual(
      named('agus', 'budi'),
    );
    expect(
      await inbox('owner', { csId: userIds.agent2, status: 'UNASSIGNED,ASSIGNED,CLOSED,RESOLVED' }),
    ).toEqual(named('agus', 'joko'));
    expect(await inbox('owner', { csId: userIds.agent2, mediaPlatform: 'WAP' })).toEqual([]);
    // An agent sees no other agent's chats, filter or not.
    expect(await inbox('agent1', { csId: userIds.agent2 })).toEqual([]);
    expect(await inbox('agent1', { csId: userIds.agent1 })).toEqual(named('budi'));
  });

  it('shows an agent (CS 2) their own chats and the queue only; the owner sees all', async () => {
    const agent = await list(
      'agent1',
      { status: 'UNASSIGNED,ASSIGNED,CLOSED,RESOLVED' },
      '/api/csp/chatRoom',
    );
    expect(idsOf(agent)).toEqual(named('dewi', 'siti', 'budi'));
    const everything = await list(
      'agent1',
      { createdFrom: undefined, createdTo: undefined },
      '/api/csp/chatRoom',
    );
    for (const ticket of everything.content) {
      expect(ticket.assigneeId === userIds.agent1 || ticket.status === 'UNASSIGNED').toBe(true);
    }
    const owner = await list('owner', { status: 'UNASSIGNED,ASSIGNED,CLOSED,RESOLVED' }, '/api/csp/chatRoom');
    expect(idsOf(owner)).toEqual(named('agus', 'dewi', 'joko', 'siti', 'budi'));
  });

  it("never shows another client's tickets, even matching every filter", async () => {
    const response = await list('owner', { keyword: 'ongkir', createdFrom: undefined, createdTo: undefined });
    expect(idsOf(response)).toContain(ids.agus);
    expect(idsOf(response)).not.toContain(foreignTicketId);
    // Another client's user as a filter matches nothing here.
    const foreignAgent = await list('owner', {
      csId: other.userId,
      createdFrom: undefined,
      createdTo: undefined,
    });
    expect(foreignAgent.content).toEqual([]);
    const otherToken = (await server.login(other.email)).accessToken;
    const theirs = await server.request<TicketListResponse>('GET', '/api/csp/chatRoom', {
      token: otherToken,
    });
    expect(idsOf(theirs.body)).toEqual([foreignTicketId]);
  });

  it('answers 403 to a user without the permission', async () => {
    const noInbox = await createClientWithUser(server.database.db, { role: 'SAD' });
    const token = (await server.login(noInbox.email)).accessToken;
    const inbox = await server.request('GET', '/api/csp/chatRoom', { token });
    expect(inbox.status).toBe(403);
    expect(inbox.body).toMatchObject({
      statusCode: 403,
      message: 'You have no permission to access this menu.',
    });
    // The ticket table needs VIEW_FEATURE, which a CS 2 agent does not have.
    const table = await server.request('GET', '/api/ticket/ticket/list', { token: tokens.agent1 });
    expect(table.status).toBe(403);
    expect((await server.request('GET', '/api/csp/chatRoom')).status).toBe(401);
  });
});
