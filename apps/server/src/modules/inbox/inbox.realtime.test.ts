import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Message, openSocket } from '../../test/socket-client';
import { type DemoUser, type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
const sockets: Array<Awaited<ReturnType<typeof openSocket>>> = [];

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  for (const live of sockets) live.socket.close();
  await kit?.server.close();
});

async function connect(user: DemoUser) {
  const live = await openSocket(`${kit.server.url.replace('http', 'ws')}/ws`, {
    authorization: `Bearer ${kit.tokens[user]}`,
  });
  await live.next((message) => message.type === 'hello');
  sockets.push(live);
  return live;
}
const aboutTicket = (topic: string, ticketId: number) => (message: Message) =>
  message.topic === topic &&
  ((message.payload?.ticket as { id?: number } | undefined)?.id === ticketId ||
    message.payload?.ticketId === ticketId);
/** Gives stray events time to arrive before asserting that one did not. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

describe('inbox events on the socket', () => {
  it("reach everyone who sees the chat, and not an agent who doesn't", async () => {
    const owner = await connect('owner');
    const agent1 = await connect('agent1');
    const agent2 = await connect('agent2');

    const { ticket } = await kit.inbound(kit.telegram, { externalId: 'rt-1', text: 'Halo semua' });
    // A new chat is in the queue: every agent who sees the queue hears of it.
    for (const live of [owner, agent1, agent2])
      await live.next(aboutTicket('inbox.message_created', ticket.id));

    const transfer = await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, assigneeId: kit.userIds.agent2 },
    });
    expect(transfer.status).toBe(200);
    // agent1 hears it leave the queue, with the assignee it went to.
    const left = await agent1.next(aboutTicket('inbox.ticket_updated', ticket.id));
    expect(left.payload).toMatchObject({
      previousAssigneeId: null,
      ticket: { assigneeId: kit.userIds.agent2 },
    });

    await kit.inbound(kit.telegram, { externalId: 'rt-1', text: 'Khusus untuk agen dua' });
    const isSecond = (message: Message) =>
      message.topic === 'inbox.message_created' &&
      (message.payload?.message as { text?: string } | undefined)?.text === 'Khusus untuk agen dua';
    await agent2.next(isSecond);
    await owner.next(isSecond);
    await settle();
    expect(agent1.messages.some(isSecond)).toBe(false);
  });

  it('lets a socket join only the ticket rooms its user may see, and carries typing there', async () => {
    const agent1 = await connect('agent1');
    const agent2 = await connect('agent2');
    const { ticket } = await kit.inbound(kit.telegram);
    await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, assigneeId: kit.userIds.agent2 },
    });

    agent1.socket.send(JSON.stringify({ type: 'subscribe', room: `ticket:${ticket.id}` }));
    const refused = await agent1.next((message) => message.type === 'error');
    expect(refused.message).toBe(`Room ticket:${ticket.id} is not available`);
    agent2.socket.send(JSON.stringify({ type: 'subscribe', room: `ticket:${ticket.id}` }));
    await agent2.next((message) => message.type === 'subscribed');

    const typing = await kit.server.request('POST', '/api/csp/chatRoom/typing', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, typing: true },
    });
    expect(typing.status).toBe(204);
    const heard = await agent2.next(aboutTicket('inbox.typing', ticket.id));
    expect(heard.payload).toMatchObject({ who: 'AGENT', name: 'Olivia Pemilik', typing: true });

    await kit.server.conversations.customerTyping({
      clientId: kit.clientId,
      contactIdentityId: (
        await kit.server.database.query<{ contact_identity_id: string }>(
          'select contact_identity_id from chat_rooms where id = $1',
          [ticket.roomId],
        )
      )[0].contact_identity_id,
      typing: true,
    });
    const customer = await agent2.next(
      (message) => message.topic === 'inbox.typing' && message.payload?.who === 'CUSTOMER',
    );
    expect(customer.payload).toMatchObject({ ticketId: ticket.id, name: ticket.customer.name });
    await settle();
    expect(agent1.messages.some((message) => message.topic === 'inbox.typing')).toBe(false);

    // Leaving the room: the typing of the chat no longer reaches agent2's socket.
    agent2.socket.send(JSON.stringify({ type: 'unsubscribe', room: `ticket:${ticket.id}` }));
    agent2.socket.send(JSON.stringify({ type: 'ping' }));
    await agent2.next((message) => message.type === 'pong');
    const heardBefore = agent2.messages.length;
    await kit.server.request('POST', '/api/csp/chatRoom/typing', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, typing: false },
    });
    await settle();
    expect(agent2.messages.slice(heardBefore).some((message) => message.topic === 'inbox.typing')).toBe(
      false,
    );
  });

  it('announces the counts the trigger keeps, summed over their shards', async () => {
    // Shards of no connection (they use 0-15): every count announced is a sum over shards.
    await kit.server.database.query(
      `insert into ticket_counters (client_id, scope, shard, count)
       values ($1, 'all', 100, 3), ($1, 'unassigned', 100, 2), ($1, 'user:' || $2, 100, 5)`,
      [kit.clientId, kit.userIds.agent1],
    );
    const owner = await connect('owner');
    const { ticket } = await kit.inbound(kit.telegram);
    const opened = await owner.next(
      (message) => message.topic === 'inbox.counts_changed' && BigInt(message.cursor!) > 0n,
    );
    const counters = async () =>
      Object.fromEntries(
        (
          await kit.server.database.query<{ scope: string; count: number }>(
            'select scope, sum(count)::int as count from ticket_counters where client_id = $1 group by scope',
            [kit.clientId],
          )
        ).map((row) => [row.scope, row.count]),
      );
    const afterOpen = await counters();
    expect(opened.payload).toMatchObject({ all: afterOpen.all, unassigned: afterOpen.unassigned });

    const cursor = BigInt(opened.cursor!);
    await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, assigneeId: kit.userIds.agent1 },
    });
    const moved = await owner.next(
      (message) => message.topic === 'inbox.counts_changed' && BigInt(message.cursor!) > cursor,
    );
    const afterMove = await counters();
    expect(moved.payload).toEqual({
      all: afterOpen.all,
      unassigned: afterOpen.unassigned - 1,
      assignees: { [kit.userIds.agent1]: afterMove[`user:${kit.userIds.agent1}`] },
    });
    await kit.server.database.query('delete from ticket_counters where client_id = $1 and shard = 100', [
      kit.clientId,
    ]);
  });
});
