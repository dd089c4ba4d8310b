import type { TicketDetailResponse, TicketSummary } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactIdentities, users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { createChannelAccount } from '../../test/inbox-factories';
import { hashPassword } from '../identity/password-hasher';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
let other: { clientId: string; userId: string; email: string };
let stranger: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  other = await createClientWithUser(kit.server.database.db);
  stranger = (await kit.server.login(other.email)).accessToken;
});
afterAll(async () => {
  await kit?.server.close();
});

const call = <Body = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) =>
  kit.server.request<Body>(method, path, { token, body });

describe('closing and resolving', () => {
  it('needs a remark, then records who closed it and when', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const missing = await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'CLOSED',
    });
    expect(missing.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Remark is required' });
    const blank = await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'CLOSED',
      remarks: '  ',
    });
    expect(blank.body).toMatchObject({ message: 'Remark is required' });

    const closed = await call<{ ticket: TicketSummary }>(
      'PUT',
      '/api/csp/chatRoom/status',
      kit.tokens.owner,
      {
        ticketId: ticket.id,
        status: 'CLOSED',
        remarks: 'Pertanyaan terjawab',
      },
    );
    expect(closed.status).toBe(200);
    expect(closed.body.ticket).toMatchObject({
      status: 'CLOSED',
      remarks: 'Pertanyaan terjawab',
      closedBy: kit.userIds.owner,
    });
    expect(closed.body.ticket.closedAt).not.toBeNull();
    const twice = await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'RESOLVED',
      remarks: 'Lagi',
    });
    expect(twice.body).toMatchObject({ statusCode: 400, message: 'Chat is already closed' });
  });

  it("resolves all of a contact's active chats when asked to", async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: '6289990001' });
    // The same person also writes on Telegram, known to the contact by a second identity.
    await kit.server.database.db.insert(contactIdentities).values({
      clientId: kit.clientId,
      contactId: first.ticket.customer.contactId,
      channelAccountId: kit.telegram.id,
      externalId: 'tg-6289990001',
    });
    const second = await kit.inbound(kit.telegram, { externalId: 'tg-6289990001' });
    expect(second.ticket.customer.contactId).toBe(first.ticket.customer.contactId);

    const detail = await call<TicketDetailResponse>(
      'GET',
      `/api/csp/chatRoom/detail?ticketId=${first.ticket.id}`,
      kit.tokens.owner,
    );
    expect(detail.body.otherActiveTicketIds).toEqual([second.ticket.id]);
    expect(detail.body.channel.accountId).toBe(kit.whatsapp.id);

    const resolved = await call<{ ticket: TicketSummary; closedTicketIds: number[] }>(
      'PUT',
      '/api/csp/chatRoom/status',
      kit.tokens.owner,
      { ticketId: first.ticket.id, status: 'RESOLVED', remarks: 'Selesai', includeOtherActive: true },
    );
    expect(resolved.body.closedTicketIds).toEqual([second.ticket.id]);
    const after = await call<TicketSummary>('GET', `/api/csp/tickets/${second.ticket.id}`, kit.tokens.owner);
    expect(after.body).toMatchObject({ status: 'RESOLVED', remarks: 'Selesai' });

    const history = await call<{ content: TicketSummary[] }>(
      'GET',
      `/api/csp/chatRoom/history?contactId=${first.ticket.customer.contactId}`,
      kit.tokens.owner,
    );
    expect(history.body.content.map((ticket) => ticket.id).sort()).toEqual(
      [first.ticket.id, second.ticket.id].sort(),
    );
  });

  it('lets an expired Instagram chat only be resolved', async () => {
    const instagram = await createChannelAccount(kit.server.database.db, kit.clientId, { channel: 'IGM' });
    const { ticket } = await kit.inbound(instagram, { sentAt: new Date(Date.now() - 30 * 3600_000) });
    const close = await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'CLOSED',
      remarks: 'Tutup',
    });
    expect(close.body).toMatchObject({
      statusCode: 400,
      message: 'This chat is past 24 hours and can only be resolved',
    });
    const resolve = await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'RESOLVED',
      remarks: 'Selesai',
    });
    expect(resolve.status).toBe(200);
  });

  it('force-closes for managers only', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const path = `/api/csp/chatRoom?ticketId=${ticket.id}&forceClose=true`;
    expect((await call('DELETE', path, kit.tokens.agent1)).body).toMatchObject({
      statusCode: 403,
      message: 'Only supervisors and admins can do this',
    });
    expect(
      (await call('DELETE', `/api/csp/chatRoom?ticketId=${ticket.id}`, kit.tokens.owner)).body,
    ).toMatchObject({
      statusCode: 400,
      message: 'Remark is required',
    });
    const closed = await call<TicketSummary>('DELETE', path, kit.tokens.supervisor);
    expect(closed.body).toMatchObject({ status: 'CLOSED', closedBy: kit.userIds.supervisor });
  });
});

describe('assignment', () => {
  it('transfers to an agent, to a group, and back to the queue', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const transfer = (body: Record<string, unknown>, token = kit.tokens.owner) =>
      call<TicketSummary>('POST', '/api/csp/chatRoom/transfer', token, { ticketId: ticket.id, ...body });

    expect((await transfer({ assigneeId: kit.userIds.agent2 })).body).toMatchObject({
      status: 'ASSIGNED',
      assigneeId: kit.userIds.agent2,
    });
    const groups = await call<{ content: Array<{ id: string; name: string }> }>(
      'GET',
      '/api/csp/groups',
      kit.tokens.agent1,
    );
    const complaints = groups.body.content.find((group) => group.name === 'Komplain')!;
    expect((await transfer({ groupId: complaints.id })).body).toMatchObject({
      status: 'UNASSIGNED',
      assigneeId: null,
      groupId: complaints.id,
    });
    expect((await transfer({ assigneeId: kit.userIds.agent1 })).body).toMatchObject({
      assigneeId: kit.userIds.agent1,
      groupId: complaints.id,
    });
    expect((await transfer({ assigneeId: null })).body).toMatchObject({
      status: 'UNASSIGNED',
      assigneeId: null,
    });
  });

  it('refuses an agent or a group of another client', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const foreignAgent = await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: ticket.id,
      assigneeId: other.userId,
    });
    expect(foreignAgent.body).toMatchObject({ statusCode: 400, message: 'This agent can not be assigned' });
    const unknownGroup = await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: ticket.id,
      groupId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownGroup.body).toMatchObject({ statusCode: 400, message: 'Group not found' });
  });

  it('never assigns a Supervisor 1, who watches every chat but does not reply', async () => {
    const [watcher] = await kit.server.database.db
      .insert(users)
      .values({
        clientId: kit.clientId,
        email: `watcher-${Date.now()}@demo.test`,
        name: 'Wati Pengawas',
        role: 'USC',
        csPosition: 'SUPERVISOR_1',
        passwordHash: await hashPassword('Demo1234!'),
      })
      .returning();
    const token = (await kit.server.login(watcher.email)).accessToken;
    const { ticket } = await kit.inbound(kit.telegram);
    await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: ticket.id,
      assigneeId: kit.userIds.agent1,
    });

    expect((await call('GET', `/api/csp/chat?ticketId=${ticket.id}`, token)).status).toBe(200);
    const reply = await call('POST', '/api/csp/chat/secure', token, {
      ticketId: ticket.id,
      clientMessageId: `watcher-${Date.now()}`,
      text: 'Halo',
    });
    expect(reply.body).toMatchObject({ statusCode: 403, message: 'You can not reply to this chat' });
    const assign = await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: ticket.id,
      assigneeId: watcher.id,
    });
    expect(assign.body).toMatchObject({ statusCode: 400, message: 'This agent can not be assigned' });
    const agents = await call<{ content: Array<{ id: string }> }>('GET', '/api/csp/agents', kit.tokens.owner);
    expect(agents.body.content.map((agent) => agent.id)).not.toContain(watcher.id);
  });

  it('lists who a chat can go to, with their availability', async () => {
    const agents = await call<{ content: Array<{ id: string; agentStatus: string }> }>(
      'GET',
      '/api/csp/agents',
      kit.tokens.agent1,
    );
    expect(agents.body.content.map((agent) => agent.id)).toEqual(
      expect.arrayContaining([kit.userIds.agent1, kit.userIds.agent2, kit.userIds.supervisor]),
    );
    expect(agents.body.content.map((agent) => agent.id)).not.toContain(other.userId);
  });
});

describe('editing a ticket', () => {
  it('sets priority, category, subject and tags', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const category = await call<{ id: string }>('POST', '/api/csp/categories', kit.tokens.owner, {
      name: `Garansi ${Date.now()}`,
    });
    expect(category.status).toBe(201);
    expect(
      (
        await call('POST', '/api/csp/chatRoom/priority', kit.tokens.agent1, {
          ticketId: ticket.id,
          priority: 1,
        })
      ).body,
    ).toMatchObject({ priority: 1 });
    expect(
      (
        await call('POST', '/api/csp/chatRoom/category', kit.tokens.agent1, {
          ticketId: ticket.id,
          categoryId: category.body.id,
        })
      ).body,
    ).toMatchObject({ categoryId: category.body.id });
    const set = await call<TicketSummary>('PUT', '/api/csp/tickets', kit.tokens.agent1, {
      ticketId: ticket.id,
      subject: 'Klaim garansi',
      tags: ['vip', 'retur'],
    });
    expect(set.body).toMatchObject({ subject: 'Klaim garansi', tags: ['vip', 'retur'] });
    const changed = await call<TicketSummary>('PUT', '/api/csp/tickets/update', kit.tokens.agent1, {
      ticketId: ticket.id,
      addTags: ['grosir', 'VIP'],
      removeTags: ['retur'],
    });
    expect(changed.body.tags).toEqual(['vip', 'grosir']);

    const tags = await call<{ content: Array<{ name: string; count: number }> }>(
      'GET',
      '/api/csp/tags',
      kit.tokens.agent1,
    );
    expect(tags.body.content.map((tag) => tag.name)).toEqual(expect.arrayContaining(['vip', 'grosir']));

    const foreignCategory = await call('POST', '/api/csp/categories', stranger, { name: 'Milik orang lain' });
    const refused = await call('POST', '/api/csp/chatRoom/category', kit.tokens.owner, {
      ticketId: ticket.id,
      categoryId: (foreignCategory.body as { id: string }).id,
    });
    expect(refused.body).toMatchObject({ statusCode: 400, message: 'Category not found' });
  });

  it('reads a chat (unread back to zero) and counts unread per assigned chat', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { externalId: 'unread-1' });
    await kit.inbound(kit.telegram, { externalId: 'unread-1', text: 'Halo lagi' });
    await call('POST', '/api/csp/chatRoom/transfer', kit.tokens.owner, {
      ticketId: ticket.id,
      assigneeId: kit.userIds.agent2,
    });
    const unread = await call<{ total: number; tickets: Array<{ ticketId: number; count: number }> }>(
      'GET',
      '/api/csp/chatRoom/unread/count',
      kit.tokens.agent2,
    );
    expect(unread.body.tickets).toContainEqual({ ticketId: ticket.id, count: 2 });
    expect(
      (await call('POST', '/api/csp/chatRoom/read', kit.tokens.agent2, { ticketId: ticket.id })).body,
    ).toMatchObject({ unreadCount: 0 });
    const after = await call<{ tickets: Array<{ ticketId: number }> }>(
      'GET',
      '/api/csp/chatRoom/unread/count',
      kit.tokens.agent2,
    );
    expect(after.body.tickets.map((each) => each.ticketId)).not.toContain(ticket.id);
  });

  it('starts a new chat in a room only when the last one is over', async () => {
    const { ticket, roomId } = await kit.inbound(kit.whatsapp);
    const busy = await call('POST', '/api/csp/chatRoom', kit.tokens.agent1, { roomId });
    expect(busy.body).toMatchObject({ statusCode: 409, message: 'This customer already has an open chat' });
    await call('PUT', '/api/csp/chatRoom/status', kit.tokens.owner, {
      ticketId: ticket.id,
      status: 'RESOLVED',
      remarks: 'Selesai',
    });
    const started = await call<TicketSummary>('POST', '/api/csp/tickets', kit.tokens.agent1, {
      roomId,
      subject: 'Tindak lanjut pesanan',
      priority: 2,
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      status: 'ASSIGNED',
      assigneeId: kit.userIds.agent1,
      submitterId: kit.userIds.agent1,
      subject: 'Tindak lanjut pesanan',
      priority: 2,
      roomId,
    });
    expect(started.body.expiresAt).toBe(ticket.expiresAt);
  });
});
