import type { TicketListResponse } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../test/demo-staff';
import { createClientWithUser } from '../../test/factories';
import { type ChannelAccountRow, createChannelAccount, createConversation } from '../../test/inbox-factories';
import type { TestServer } from '../../test/test-server';
import { idsOf, type ListQuery, listTickets } from './ticket-list.fixtures';

/**
 * The lists' pages past the simple filters: the EXPIRED filter's read from the open chats'
 * activity, and keyset pages that stay whole while tickets arrive between them.
 */

let server: TestServer;
let clientId: string;
let userIds: Record<string, string>;
let tokens: Record<string, string>;
let other: { clientId: string; userId: string; email: string };
let liveChat: ChannelAccountRow;
let whatsApp: ChannelAccountRow;

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ({ server, clientId, userIds, tokens } = await startDemoServer(['owner', 'agent1', 'agent2']));
  const db = server.database.db;
  liveChat = await createChannelAccount(db, clientId, { channel: 'LVC' });
  whatsApp = await createChannelAccount(db, clientId, { channel: 'WAP' });
  other = await createClientWithUser(db);
});
afterAll(async () => {
  await server?.close();
});

/** A page as the demo user asks for it, over every creation date unless the query gives a range. */
const list = (who: string, query: ListQuery = {}, path?: string) =>
  listTickets(server, tokens[who], {}, query, path);

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
      const page = await list('owner', { tags: 'keyset-inbox', pageSize: 2, cursor }, '/api/csp/chatRoom');
      seen.push(...idsOf(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });
});
