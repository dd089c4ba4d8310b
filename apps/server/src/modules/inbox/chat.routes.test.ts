import type { ChatPageResponse, MessageView, TicketSummary } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelAccount } from '../../test/inbox-factories';
import { jpegOf, uploadThroughLink } from '../media/media.test-support';
import { eventually, type InboxTestKit, outsiderTokens, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
let stranger: string;
let noPermission: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  ({ stranger, noPermission } = await outsiderTokens(kit));
});
afterAll(async () => {
  await kit?.server.close();
});

let keySequence = 0;
const key = () => {
  keySequence += 1;
  return `key-${Date.now()}-${keySequence}`;
};

function send(token: string, body: Record<string, unknown>) {
  return kit.server.request<MessageView & { message?: string }>('POST', '/api/csp/chat/secure', {
    token,
    body: { clientMessageId: key(), text: 'Halo kak', ...body },
  });
}
const getMessage = (token: string, id: number) =>
  kit.server.request<MessageView>('GET', `/api/csp/chat/id?id=${id}`, { token });
const getTicket = (token: string, id: number) =>
  kit.server.request<TicketSummary>('GET', `/api/csp/tickets/${id}`, { token });

describe('POST /api/csp/chat/secure', () => {
  it('sends once per client message id: 201, then the same message with 200', async () => {
    const { ticket } = await kit.inbound(kit.whatsapp);
    const clientMessageId = key();
    const first = await send(kit.tokens.owner, {
      ticketId: ticket.id,
      clientMessageId,
      text: 'Stok ada kak',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      kind: 'PublicMessage',
      direction: 'OUTBOUND',
      status: 'PENDING',
      clientMessageId,
      sender: { type: 'AGENT', name: 'Olivia Pemilik' },
    });
    const again = await send(kit.tokens.owner, {
      ticketId: ticket.id,
      clientMessageId,
      text: 'Stok ada kak',
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const page = await kit.server.request<ChatPageResponse>('GET', `/api/csp/chat?ticketId=${ticket.id}`, {
      token: kit.tokens.owner,
    });
    expect(page.body.messages.filter((message) => message.clientMessageId === clientMessageId)).toHaveLength(
      1,
    );
  });

  it('puts a FAILED message back in the queue when the composer retries it', async () => {
    kit.provider.whatsapp.answers = ['refuse'];
    const { ticket } = await kit.inbound(kit.whatsapp);
    const clientMessageId = key();
    const first = await send(kit.tokens.owner, { ticketId: ticket.id, clientMessageId });
    await eventually(
      async () => (await getMessage(kit.tokens.owner, first.body.id)).body.status === 'FAILED',
    );
    expect((await getMessage(kit.tokens.owner, first.body.id)).body.failureReason).toContain('131026');

    kit.provider.whatsapp.answers = ['sent'];
    const retry = await send(kit.tokens.owner, { ticketId: ticket.id, clientMessageId });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id: first.body.id, status: 'PENDING', failureReason: null });
    await eventually(async () => (await getMessage(kit.tokens.owner, first.body.id)).body.status === 'SENT');
  });

  it('refuses empty, oversized, closed and expired sends with the inbox texts', async () => {
    const { ticket } = await kit.inbound(kit.whatsapp);
    const empty = await send(kit.tokens.owner, { ticketId: ticket.id, text: '   ' });
    expect(empty.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Message is empty' });
    const long = await send(kit.tokens.owner, { ticketId: ticket.id, text: 'x'.repeat(4097) });
    expect(long.body).toMatchObject({ statusCode: 400, message: 'Message is too long' });

    const expired = await kit.inbound(kit.whatsapp, { sentAt: new Date(Date.now() - 25 * 3600_000) });
    expect(expired.ticket.expired).toBe(true);
    const late = await send(kit.tokens.owner, { ticketId: expired.ticket.id });
    expect(late.body).toMatchObject({ statusCode: 400, message: 'Chat expired' });
    // An internal note is still fine on an expired chat.
    expect(
      (await send(kit.tokens.owner, { ticketId: expired.ticket.id, kind: 'InternalMessage' })).status,
    ).toBe(201);

    await kit.server.request('PUT', '/api/csp/chatRoom/status', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, status: 'CLOSED', remarks: 'Selesai' },
    });
    const closed = await send(kit.tokens.owner, { ticketId: ticket.id });
    expect(closed.body).toMatchObject({ statusCode: 400, message: 'Chat is already closed' });
  });

  it('stores HTML as text and returns it unchanged', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const text = '<img src=x onerror="alert(1)"> & <b>bold</b>';
    const sent = await send(kit.tokens.owner, { ticketId: ticket.id, text });
    expect(sent.body.text).toBe(text);
    expect((await getMessage(kit.tokens.owner, sent.body.id)).body.text).toBe(text);
  });

  it('lets an agent take a queued chat by replying, and keeps internal notes internal', async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    const note = await send(kit.tokens.agent1, {
      ticketId: ticket.id,
      kind: 'InternalMessage',
      text: 'Cek stok',
    });
    expect(note.body.status).toBe('SENT');
    expect((await getTicket(kit.tokens.agent1, ticket.id)).body.status).toBe('UNASSIGNED');

    const reply = await send(kit.tokens.agent1, { ticketId: ticket.id, text: 'Saya bantu ya kak' });
    expect(reply.status).toBe(201);
    const taken = await getTicket(kit.tokens.agent1, ticket.id);
    expect(taken.body).toMatchObject({ status: 'ASSIGNED', assigneeId: kit.userIds.agent1, unreadCount: 0 });
    // agent2 no longer sees it: it left the queue for agent1.
    expect((await send(kit.tokens.agent2, { ticketId: ticket.id })).status).toBe(404);
  });

  it('quotes only a message of the same chat', async () => {
    const one = await kit.inbound(kit.telegram, { text: 'Pertanyaan pertama' });
    const two = await kit.inbound(kit.telegram);
    const quoted = await send(kit.tokens.owner, { ticketId: one.ticket.id, quotedMessageId: one.message.id });
    expect(quoted.body.quoted).toMatchObject({ id: one.message.id, text: 'Pertanyaan pertama' });
    const foreign = await send(kit.tokens.owner, {
      ticketId: one.ticket.id,
      quotedMessageId: two.message.id,
    });
    expect(foreign.body).toMatchObject({
      statusCode: 400,
      message: 'The quoted message is not in this chat',
    });
  });

  it('sends uploaded files the channel takes, and refuses the ones it does not', async () => {
    const { ticket } = await kit.inbound(kit.whatsapp);
    const photo = await uploadThroughLink(kit.server, kit.tokens.owner, {
      filename: 'bukti-transfer.jpg',
      contentType: 'image/jpeg',
      bytes: jpegOf(320, 240),
    });
    const sent = await send(kit.tokens.owner, {
      ticketId: ticket.id,
      text: '',
      attachmentIds: [photo.fileId],
    });
    expect(sent.status).toBe(201);
    expect(sent.body.attachments).toEqual([
      expect.objectContaining({
        id: photo.fileId,
        name: expect.stringMatching(/bukti-transfer\.jpg$/),
        type: 'image',
        url: expect.any(String),
      }),
    ]);
    expect((await getTicket(kit.tokens.owner, ticket.id)).body.lastMessagePreview).toMatch(
      /^📎 .*bukti-transfer\.jpg$/,
    );

    const instagram = await createChannelAccount(kit.server.database.db, kit.clientId, { channel: 'IGM' });
    const onInstagram = await kit.inbound(instagram);
    const invoice = await uploadThroughLink(kit.server, kit.tokens.owner, {
      filename: 'invoice.pdf',
      contentType: 'application/pdf',
      bytes: Buffer.from('%PDF-1.4 demo'),
    });
    const refused = await send(kit.tokens.owner, {
      ticketId: onInstagram.ticket.id,
      attachmentIds: [invoice.fileId],
    });
    expect(refused.body).toMatchObject({
      statusCode: 400,
      message: 'Media type is not supported on this channel',
    });

    // A file is the uploader's own: another agent cannot attach it.
    const borrowed = await send(kit.tokens.supervisor, {
      ticketId: ticket.id,
      attachmentIds: [photo.fileId],
    });
    expect(borrowed.status).toBe(400);
  });

  it("answers 404 for another client's chat and 403 without the inbox permission", async () => {
    const { ticket } = await kit.inbound(kit.telegram);
    expect((await send(stranger, { ticketId: ticket.id })).status).toBe(404);
    const refused = await send(noPermission, { ticketId: ticket.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You have no permission to access this menu.');
  });
});

describe('GET /api/csp/chat', () => {
  it('opens at the newest 50, pages back with `before`, and catches up with `after`', async () => {
    const externalId = `paging-${Date.now()}`;
    const start = Date.now() - 3600_000;
    let last = await kit.inbound(kit.telegram, { externalId, text: 'pesan 0', sentAt: new Date(start) });
    for (let index = 1; index < 60; index += 1)
      last = await kit.inbound(kit.telegram, {
        externalId,
        text: `pesan ${index}`,
        sentAt: new Date(start + index),
      });
    const ticketId = last.ticket.id;
    const page = (query: string) =>
      kit.server.request<ChatPageResponse>('GET', `/api/csp/chat?ticketId=${ticketId}${query}`, {
        token: kit.tokens.owner,
      });

    const newest = await page('');
    expect(newest.body.messages).toHaveLength(50);
    expect(newest.body.hasMore).toBe(true);
    expect(newest.body.messages.at(-1)!.text).toBe('pesan 59');
    expect(newest.body.messages[0].text).toBe('pesan 10');

    const older = await page(`&before=${newest.body.messages[0].id}`);
    expect(older.body.messages.map((message) => message.text)).toEqual(
      Array.from({ length: 10 }, (_, index) => `pesan ${index}`),
    );
    expect(older.body.hasMore).toBe(false);

    const catchUp = await page(`&after=${newest.body.messages[47].id}`);
    expect(catchUp.body.messages.map((message) => message.text)).toEqual(['pesan 58', 'pesan 59']);
    expect(catchUp.body.hasMore).toBe(false);
  });

  it('shows agent2 the queue but not the chat agent1 holds', async () => {
    const queued = await kit.inbound(kit.telegram);
    const held = await kit.inbound(kit.telegram);
    await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: held.ticket.id, assigneeId: kit.userIds.agent1 },
    });
    const read = (token: string, ticketId: number) =>
      kit.server.request('GET', `/api/csp/chat?ticketId=${ticketId}`, { token });
    expect((await read(kit.tokens.agent2, queued.ticket.id)).status).toBe(200);
    expect((await read(kit.tokens.agent2, held.ticket.id)).status).toBe(404);
    expect((await read(kit.tokens.agent1, held.ticket.id)).status).toBe(200);
    expect((await getMessage(kit.tokens.agent2, held.message.id)).status).toBe(404);
    expect((await read(stranger, queued.ticket.id)).status).toBe(404);
    expect((await read(noPermission, queued.ticket.id)).status).toBe(403);
    // Opened by its room, the chat is checked the same way.
    const byRoom = (token: string, roomId: string) =>
      kit.server.request('GET', `/api/csp/chat?roomId=${roomId}`, { token });
    expect((await byRoom(kit.tokens.agent2, queued.ticket.roomId)).status).toBe(200);
    expect((await byRoom(kit.tokens.agent2, held.ticket.roomId)).status).toBe(404);
    expect((await byRoom(kit.tokens.agent1, held.ticket.roomId)).status).toBe(200);
    expect((await byRoom(stranger, held.ticket.roomId)).status).toBe(404);
  });
});

describe('DELETE /api/csp/chat/secure', () => {
  it("removes one's own internal note, never a delivered message or someone else's note", async () => {
    const { ticket, message: inbound } = await kit.inbound(kit.telegram);
    const note = await send(kit.tokens.supervisor, { ticketId: ticket.id, kind: 'InternalMessage' });
    const remove = (token: string, id: number) =>
      kit.server.request('DELETE', `/api/csp/chat/secure?id=${id}`, { token });

    expect((await remove(kit.tokens.owner, note.body.id)).body).toMatchObject({
      statusCode: 403,
      message: 'Only your own internal notes and failed messages can be deleted',
    });
    expect((await remove(kit.tokens.owner, inbound.id)).status).toBe(403);
    expect((await remove(stranger, note.body.id)).status).toBe(404);
    expect((await remove(noPermission, note.body.id)).status).toBe(403);
    expect((await remove(kit.tokens.supervisor, note.body.id)).status).toBe(204);
    expect((await getMessage(kit.tokens.supervisor, note.body.id)).status).toBe(404);
  });
});
