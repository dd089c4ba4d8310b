import type { TicketDetailResponse, TicketSummary } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
let other: { clientId: string; userId: string; email: string };
let stranger: string;
let noPermission: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  other = await createClientWithUser(kit.server.database.db);
  stranger = (await kit.server.login(other.email)).accessToken;
  const sad = await createClientWithUser(kit.server.database.db, { role: 'SAD' });
  noPermission = (await kit.server.login(sad.email)).accessToken;
});
afterAll(async () => {
  await kit?.server.close();
});

const call = <Body = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) =>
  kit.server.request<Body>(method, path, { token, body });
describe('tenancy and permission on every chat route', () => {
  it('answers 404 to another client and 403 without the inbox permission', async () => {
    const { ticket, roomId, message } = await kit.inbound(kit.telegram);
    const contactId = ticket.customer.contactId;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/csp/chatRoom/detail?ticketId=${ticket.id}`],
      ['GET', `/api/csp/chatRoom/history?contactId=${contactId}`],
      ['POST', '/api/csp/chatRoom', { roomId }],
      ['POST', '/api/csp/chatRoom/category', { ticketId: ticket.id, categoryId: null }],
      ['POST', '/api/csp/chatRoom/priority', { ticketId: ticket.id, priority: 1 }],
      ['PUT', '/api/csp/chatRoom/status', { ticketId: ticket.id, status: 'CLOSED', remarks: 'x' }],
      ['POST', '/api/csp/chatRoom/transfer', { ticketId: ticket.id, assigneeId: null }],
      ['DELETE', `/api/csp/chatRoom?ticketId=${ticket.id}&forceClose=true`],
      ['POST', '/api/csp/chatRoom/read', { ticketId: ticket.id }],
      ['POST', '/api/csp/chatRoom/typing', { ticketId: ticket.id, typing: true }],
      ['GET', `/api/csp/chat?ticketId=${ticket.id}`],
      ['GET', `/api/csp/chat/id?id=${message.id}`],
      ['DELETE', `/api/csp/chat/secure?id=${message.id}`],
      ['GET', `/api/csp/tickets/${ticket.id}`],
      ['POST', '/api/csp/tickets', { roomId }],
      ['PUT', '/api/csp/tickets', { ticketId: ticket.id, subject: 'x' }],
      ['PUT', '/api/csp/tickets/update', { ticketId: ticket.id, addTags: ['x'] }],
    ];
    for (const [method, path, body] of routes) {
      const foreign = await call(method, path, stranger, body);
      expect([method, path, foreign.status]).toEqual([method, path, 404]);
      const refused = await call(method, path, noPermission, body);
      expect([method, path, refused.status]).toEqual([method, path, 403]);
    }
    for (const path of [
      '/api/csp/chatRoom/unread/count',
      '/api/csp/tags',
      '/api/csp/categories',
      '/api/csp/configuration',
      '/api/csp/groups',
      '/api/csp/agents',
    ]) {
      expect([path, (await call('GET', path, noPermission)).status]).toEqual([path, 403]);
    }
    // Nothing the stranger tried changed the chat.
    const after = await call<TicketSummary>('GET', `/api/csp/tickets/${ticket.id}`, kit.tokens.owner);
    expect(after.body).toMatchObject({ status: 'UNASSIGNED', priority: 3, subject: null });
  });
});

describe('GET chatRoom/detail', () => {
  it('shows the ticket with its customer, channel and earlier tickets, each only to those who may see it', async () => {
    const externalId = `detail-${Date.now()}`;
    const customer = { externalId, name: 'Dewi Lestari' };
    const earlier = await kit.inbound(kit.whatsapp, { customer, text: 'Pesanan kemarin belum sampai' });
    await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: earlier.ticket.id,
      assigneeId: kit.userIds.agent1,
    });
    await call('PUT', '/api/csp/chatRoom/status', kit.tokens.agent1, {
      ticketId: earlier.ticket.id,
      status: 'RESOLVED',
      remarks: 'Sudah dikirim ulang',
    });
    const current = await kit.inbound(kit.whatsapp, { customer, text: 'Halo lagi kak' });
    expect(current.ticket.id).not.toBe(earlier.ticket.id);
    const detailOf = (token: string, ticketId: number) =>
      call<TicketDetailResponse>('GET', `/api/csp/chatRoom/detail?ticketId=${ticketId}`, token);

    const owner = await detailOf(kit.tokens.owner, current.ticket.id);
    expect(owner.status).toBe(200);
    expect(owner.body.ticket.id).toBe(current.ticket.id);
    expect(owner.body.contact).toMatchObject({
      contactId: current.ticket.customer.contactId,
      name: 'Dewi Lestari',
    });
    expect(owner.body.channel).toEqual({ accountId: kit.whatsapp.id, name: kit.whatsapp.name });
    expect(owner.body.earlierTickets.map((ticket) => ticket.id)).toEqual([earlier.ticket.id]);
    expect(owner.body.otherActiveTicketIds).toEqual([]);
    // Written by PostgreSQL (json-views.ts), the earlier ticket reads as the ticket call presents it.
    const alone = await call<TicketSummary>('GET', `/api/csp/tickets/${earlier.ticket.id}`, kit.tokens.owner);
    expect(owner.body.earlierTickets[0]).toEqual(alone.body);

    // agent2 sees the queue but not what agent1 held: the earlier ticket is left out, and opened alone it is a 404.
    const agent2 = await detailOf(kit.tokens.agent2, current.ticket.id);
    expect(agent2.status).toBe(200);
    expect(agent2.body.earlierTickets).toEqual([]);
    expect((await detailOf(kit.tokens.agent2, earlier.ticket.id)).status).toBe(404);
    expect((await detailOf(kit.tokens.agent1, earlier.ticket.id)).status).toBe(200);
    expect((await detailOf(kit.tokens.owner, 999_999_999)).status).toBe(404);
  });
});
