import { randomUUID } from 'node:crypto';
import type { TicketListResponse } from '@app/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { type ChannelAccountRow, createChannelAccount, createConversation } from '../../test/inbox-factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let clientId: string;
const userIds: Record<string, string> = {};
const tokens: Record<string, string> = {};
let other: { clientId: string; userId: string; email: string };
let foreignTicketId: number;
let liveChat: ChannelAccountRow;
let whatsApp: ChannelAccountRow;
/** The filter tests' tickets live in 2020, so nothing else the database holds is in range. */
const year2020 = { createdFrom: '2020-01-01T00:00:00.000Z', createdTo: '2020-12-31T23:59:59.999Z' };
const groupId = randomUUID();
const categoryId = randomUUID();
const ids: Record<'budi' | 'siti' | 'joko' | 'dewi' | 'agus', number> = {} as never;

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  clientId = server.demoClientId!;
  for (const email of ['owner', 'agent1', 'agent2', 'supervisor']) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, `${email}@demo.test`), isNull(users.sharedLoginUserId)));
    userIds[email] = row.id;
    tokens[email] = (await server.login(`${email}@demo.test`)).accessToken;
  }
  liveChat = await createChannelAccount(db, clientId, { channel: 'LVC' });
  whatsApp = await createChannelAccount(db, clientId, { channel: 'WAP' });

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

type ListQuery = Record<string, string | number | undefined>;

async function list(
  who: string,
  query: ListQuery = {},
  path = '/api/ticket/ticket/list',
): Promise<TicketListResponse & { status: number }> {
  const params = new URLSearchParams({ ...year2020, pageSize: '100' });
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) params.delete(key);
    else params.set(key, String(value));
  }
  const response = await server.request<TicketListResponse>('GET', `${path}?${params}`, {
    token: tokens[who],
  });
  return { ...response.body, status: response.status };
}

const idsOf = (response: TicketListResponse) => response.content.map((ticket) => ticket.id);
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

describe('the EXPIRED filter newest created first (read from the open chats’ activity, migration 0043)', () => {
  /** These tickets live in 2019, apart from the other tests' range. */
  const year2019 = { createdFrom: '2019-01-01T00:00:00.000Z', createdTo: '2019-12-31T23:59:59.999Z' };
  const expired: Record<'queue' | 'agent1' | 'agent2' | 'fresh' | 'closed', number> = {} as never;

  beforeAll(async () => {
    const db = server.database.db;
    const make = async (
      name: string,
      createdAt: string,
      ticket: Record<string, unknown>,
      channelAccount = liveChat,
    ) =>
      (
        await createConversation(db, {
          clientId,
          channelAccount,
          customer: { name },
          ticket: { createdAt: at(createdAt), lastMessageAt: at(createdAt), ...ticket },
        })
      ).ticket.id;
    const past = at('2019-06-01T00:00:00Z');
    expired.queue = await make('Rina Expired', '2019-05-01T03:00:00Z', { expiresAt: past });
    expired.agent2 = await make(
      'Tono Expired',
      '2019-05-02T03:00:00Z',
      { status: 'ASSIGNED', assigneeId: userIds.agent2, expiresAt: past },
      whatsApp,
    );
    expired.agent1 = await make('Wati Expired', '2019-05-03T03:00:00Z', {
      status: 'ASSIGNED',
      assigneeId: userIds.agent1,
      expiresAt: past,
    });
    expired.fresh = await make('Yanto Fresh', '2019-05-04T03:00:00Z', {
      status: 'ASSIGNED',
      assigneeId: userIds.agent1,
      expiresAt: at('2099-01-01T00:00:00Z'),
    });
    expired.closed = await make('Zaki Closed', '2019-05-05T03:00:00Z', {
      status: 'CLOSED',
      assigneeId: userIds.agent1,
      closedAt: at('2019-05-06T03:00:00Z'),
      expiresAt: past,
    });
  });

  const of = (...names: Array<keyof typeof expired>) => names.map((name) => expired[name]);

  it('merges both open statuses in creation order, page by page, and marks each expired', async () => {
    const first = await list('owner', { ...year2019, status: 'EXPIRED', pageSize: 2 });
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual(of('agent1', 'agent2'));
    expect(first.content.every((ticket) => ticket.expired)).toBe(true);
    expect(first.nextCursor).not.toBeNull();
    const second = await list('owner', {
      ...year2019,
      status: 'EXPIRED',
      pageSize: 2,
      cursor: first.nextCursor!,
    });
    expect(idsOf(second)).toEqual(of('queue'));
    expect(second.nextCursor).toBeNull();
    const withClosed = await list('owner', { ...year2019, status: 'EXPIRED,CLOSED' });
    expect(idsOf(withClosed)).toEqual(of('closed', 'agent1', 'agent2', 'queue'));
  });

  it('keeps the creation range, the other filters and what an agent may see', async () => {
    const early = await list('owner', { ...year2019, createdTo: '2019-05-02T12:00:00Z', status: 'EXPIRED' });
    expect(idsOf(early)).toEqual(of('agent2', 'queue'));
    const late = await list('owner', { ...year2019, createdFrom: '2019-05-02T12:00:00Z', status: 'EXPIRED' });
    expect(idsOf(late)).toEqual(of('agent1'));
    expect(idsOf(await list('owner', { ...year2019, status: 'EXPIRED', mediaPlatform: 'WAP' }))).toEqual(
      of('agent2'),
    );
    expect(idsOf(await list('owner', { ...year2019, status: 'EXPIRED', csId: userIds.agent1 }))).toEqual(
      of('agent1'),
    );
    const inbox = '/api/csp/chatRoom';
    const agent = await list('agent1', { ...year2019, status: 'EXPIRED', sort: 'createdAt' }, inbox);
    expect(idsOf(agent)).toEqual(of('agent1', 'queue'));
    const mine = await list(
      'agent1',
      { ...year2019, status: 'EXPIRED', sort: 'createdAt', tab: 'mine' },
      inbox,
    );
    expect(idsOf(mine)).toEqual(of('agent1'));
    const foreign = await server.request<TicketListResponse>(
      'GET',
      `/api/ticket/ticket/list?${new URLSearchParams({ ...year2019, status: 'EXPIRED' })}`,
      { token: (await server.login(other.email)).accessToken },
    );
    expect(foreign.status).toBe(200);
    expect(foreign.body.content).toEqual([]);
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

describe('keyset pages', () => {
  it('cover every row once while rows are inserted between pages', async () => {
    const db = server.database.db;
    const range = { createdFrom: '2021-06-01T00:00:00Z', createdTo: '2021-06-30T23:59:59Z' };
    const created: number[] = [];
    for (let day = 1; day <= 7; day += 1) {
      // Two tickets share each of some instants, so the id decides their order.
      const createdAt = at(`2021-06-${String(10 + Math.ceil(day / 2)).padStart(2, '0')}T08:00:00Z`);
      created.push((await createConversation(db, { clientId, ticket: { createdAt } })).ticket.id);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list('owner', { ...range, pageSize: 3, cursor });
      expect(page.status).toBe(200);
      seen.push(...idsOf(page));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
      if (pages === 1) {
        // A newer row belongs before the cursor: it must not appear on a later page.
        await createConversation(db, { clientId, ticket: { createdAt: at('2021-06-29T08:00:00Z') } });
        // An older one belongs after it: it must appear once.
        const older = await createConversation(db, {
          clientId,
          ticket: { createdAt: at('2021-06-02T08:00:00Z') },
        });
        created.push(older.ticket.id);
      }
    } while (cursor && pages < 10);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...created].sort());
    expect(pages).toBe(3);
  });

  it('page the inbox by latest activity with the same guarantees', async () => {
    const db = server.database.db;
    const created: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const conversation = await createConversation(db, {
        clientId,
        ticket: {
          status: index % 2 === 0 ? 'UNASSIGNED' : 'ASSIGNED',
          assigneeId: index % 2 === 0 ? null : userIds.agent2,
          createdAt: at('2022-01-01T08:00:00Z'),
          lastMessageAt: at(`2022-01-0${1 + index}T09:00:00Z`),
          tags: ['keyset-inbox'],
        },
      });
      created.push(conversation.ticket.id);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(
        'owner',
        { tags: 'keyset-inbox', pageSize: 2, cursor, createdFrom: undefined, createdTo: undefined },
        '/api/csp/chatRoom',
      );
      seen.push(...idsOf(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });
});
