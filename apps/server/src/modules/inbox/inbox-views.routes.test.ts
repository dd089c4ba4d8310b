import type { TabCounts, TicketListResponse, TicketViewListResponse } from '@app/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketCounters, tickets } from '../../db/schema';
import { startDemoServer } from '../../test/demo-staff';
import { createConversation } from '../../test/inbox-factories';
import type { TestServer } from '../../test/test-server';

let server: TestServer;
let clientId: string;
let userIds: Record<string, string>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, clientId, userIds, tokens } = await startDemoServer(['owner', 'agent1', 'supervisor']));
});
afterAll(async () => {
  await server?.close();
});

async function list(who: string): Promise<TicketListResponse> {
  return (
    await server.request<TicketListResponse>('GET', '/api/csp/chatRoom?pageSize=1', { token: tokens[who] })
  ).body;
}

describe('tab counts', () => {
  const countsOf = async (who: string) => (await list(who)).counts;

  it('come from the counters the trigger keeps, as tickets are inserted and change', async () => {
    const db = server.database.db;
    const [{ open }] = (
      (await db.execute(
        sql`select count(*)::int as open from tickets where client_id = ${clientId} and status in ('UNASSIGNED', 'ASSIGNED')`,
      )) as unknown as { rows: Array<{ open: number }> }
    ).rows;
    const owner0 = await countsOf('owner');
    const agent0 = await countsOf('agent1');
    expect(owner0.all).toBe(open);
    expect(agent0.all).toBe(agent0.mine + agent0.unassigned);
    expect(agent0.unassigned).toBe(owner0.unassigned);

    const fresh = await createConversation(db, { clientId });
    const delta = (after: TabCounts, before: TabCounts) => ({
      mine: after.mine - before.mine,
      unassigned: after.unassigned - before.unassigned,
      all: after.all - before.all,
    });
    expect(delta(await countsOf('owner'), owner0)).toEqual({ mine: 0, unassigned: 1, all: 1 });
    expect(delta(await countsOf('agent1'), agent0)).toEqual({ mine: 0, unassigned: 1, all: 1 });

    await db
      .update(tickets)
      .set({ status: 'ASSIGNED', assigneeId: userIds.agent1 })
      .where(eq(tickets.id, fresh.ticket.id));
    expect(delta(await countsOf('owner'), owner0)).toEqual({ mine: 0, unassigned: 0, all: 1 });
    expect(delta(await countsOf('agent1'), agent0)).toEqual({ mine: 1, unassigned: 0, all: 1 });

    await db.update(tickets).set({ status: 'CLOSED' }).where(eq(tickets.id, fresh.ticket.id));
    expect(delta(await countsOf('agent1'), agent0)).toEqual({ mine: 0, unassigned: 0, all: 0 });
    expect(delta(await countsOf('owner'), owner0)).toEqual({ mine: 0, unassigned: 0, all: 0 });
  });

  it('come with a page that has no rows too (read apart from the page then)', async () => {
    const empty = (
      await server.request<TicketListResponse>(
        'GET',
        '/api/csp/chatRoom?pageSize=1&customerInfo=tidak-ada-xyz',
        {
          token: tokens.agent1,
        },
      )
    ).body;
    expect(empty.content).toEqual([]);
    expect(empty.counts).toEqual(await countsOf('agent1'));
  });

  it('are read from ticket_counters, not counted over tickets, as the sum of the shards', async () => {
    const db = server.database.db;
    // A shard no connection writes to (they use 0-15): the count is the sum of every shard.
    const extraShard = and(
      eq(ticketCounters.clientId, clientId),
      eq(ticketCounters.scope, 'all'),
      eq(ticketCounters.shard, 100),
    );
    const before = await countsOf('owner');
    await db.insert(ticketCounters).values({ clientId, scope: 'all', shard: 100, count: 1000 });
    try {
      expect((await countsOf('owner')).all).toBe(before.all + 1000);
      // The views' list reads the counters apart from any page, and sums them as well.
      const views = await server.request<TicketViewListResponse>('GET', '/api/ticket/views/list', {
        token: tokens.owner,
      });
      expect(views.body.content).toContainEqual({ id: 'all', count: before.all + 1000 });
    } finally {
      await db.delete(ticketCounters).where(extraShard);
    }
  });
});

describe('views and columns', () => {
  it('lists the three default views with the tab counts', async () => {
    const response = await server.request<TicketViewListResponse>('GET', '/api/ticket/views/list', {
      token: tokens.agent1,
    });
    expect(response.status).toBe(200);
    const counts = await list('agent1');
    expect(response.body.content).toEqual([
      { id: 'mine', count: counts.counts.mine },
      { id: 'unassigned', count: counts.counts.unassigned },
      { id: 'all', count: counts.counts.all },
    ]);
  });

  it('keeps a column set per user, every column until one is saved', async () => {
    const get = (who: string) =>
      server.request<{ columns: string[] }>('GET', '/api/ticket/views/columns', { token: tokens[who] });
    const initial = await get('supervisor');
    expect(initial.status).toBe(200);
    expect(initial.body.columns).toHaveLength(14);
    const saved = await server.request('PUT', '/api/ticket/views/columns', {
      token: tokens.supervisor,
      body: { columns: ['id', 'customer', 'status', 'customer'] },
    });
    expect(saved.status).toBe(200);
    expect((await get('supervisor')).body.columns).toEqual(['id', 'customer', 'status']);
    expect((await get('owner')).body.columns).toHaveLength(14);

    const unknown = await server.request('PUT', '/api/ticket/views/columns', {
      token: tokens.supervisor,
      body: { columns: ['password'] },
    });
    expect(unknown.status).toBe(400);
    const empty = await server.request('PUT', '/api/ticket/views/columns', {
      token: tokens.supervisor,
      body: { columns: [] },
    });
    expect(empty.status).toBe(400);
    expect((await get('agent1')).status).toBe(403);
  });
});
