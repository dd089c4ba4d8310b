import type { ChatPageResponse, MessageView, TicketSummary } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRowsOf } from '../../db/json-row';
import { readInTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { createChannelAccount } from '../../test/inbox-factories';
import { jpegOf, uploadThroughLink } from '../media/media.test-support';
import { eventually, type InboxTestKit, startInboxTestKit } from './conversation.fixtures';
import { checkedNewestPageQuery, checkedPageOf, type KeyedRoomPage } from './message.repository';

let kit: InboxTestKit;
let stranger: string;
let noPermission: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  const other = await createClientWithUser(kit.server.database.db);
  stranger = (await kit.server.login(other.email)).accessToken;
  const sad = await createClientWithUser(kit.server.database.db, { role: 'SAD' });
  noPermission = (await kit.server.login(sad.email)).accessToken;
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

describe('GET /api/csp/chat opened again (room-page-cache.ts)', () => {
  const open = (token: string, ticketId: number) =>
    kit.server.request<ChatPageResponse>('GET', `/api/csp/chat?ticketId=${ticketId}`, { token });

  it('answers what the database holds now, whoever changed it', async () => {
    const externalId = `again-${Date.now()}`;
    const start = Date.now() - 3600_000;
    const first = await kit.inbound(kit.telegram, { externalId, text: 'pesan 0', sentAt: new Date(start) });
    const ticketId = first.ticket.id;
    const note = await send(kit.tokens.supervisor, {
      ticketId,
      kind: 'InternalMessage',
      text: 'Cek stok dulu',
    });
    for (let index = 1; index <= 51; index += 1)
      await kit.inbound(kit.telegram, {
        externalId,
        text: `pesan ${index}`,
        sentAt: new Date(start + index),
      });
    const quoting = await send(kit.tokens.supervisor, {
      ticketId,
      kind: 'InternalMessage',
      text: 'Sesuai catatan ini',
      quotedMessageId: note.body.id,
    });
    const texts = (page: ChatPageResponse) => page.messages.map((message) => message.text);

    const opened = await open(kit.tokens.owner, ticketId);
    expect(opened.body.messages).toHaveLength(50);
    expect(opened.body.messages.at(-1)).toMatchObject({
      text: 'Sesuai catatan ini',
      quoted: { text: 'Cek stok dulu' },
    });
    expect((await open(kit.tokens.owner, ticketId)).body).toEqual(opened.body);

    // A new message in the room.
    await kit.inbound(kit.telegram, { externalId, text: 'pesan baru', sentAt: new Date(start + 100) });
    const withNew = await open(kit.tokens.owner, ticketId);
    expect(texts(withNew.body).at(-1)).toBe('pesan baru');
    expect(texts(withNew.body)[0]).toBe('pesan 4');

    // A message changed by another writer (another process, a receipt): its new status shows.
    const changed = withNew.body.messages[10];
    expect(changed.status).not.toBe('READ');
    await kit.server.database.db.execute(
      sql`update messages set status = 'READ' where client_id = ${kit.clientId} and id = ${changed.id}`,
    );
    const afterReceipt = await open(kit.tokens.owner, ticketId);
    expect(afterReceipt.body.messages[10]).toMatchObject({ id: changed.id, status: 'READ' });

    // The fingerprint the server takes of a page it reads whole is the one the database takes
    // when asked whether the page changed: else a page kept would never be answered again.
    // And a page held without its newest message has only that one written again.
    const fingerprints = await readInTenant(kit.server.database.db, kit.clientId, async (tx) => {
      const taken: string[] = [];
      for (const of of [{ ticketId }, { roomId: first.ticket.roomId }]) {
        const read = async (held: KeyedRoomPage | undefined) => {
          const raw = await rawRowsOf(tx, checkedNewestPageQuery(kit.clientId, of, 50, held));
          return { raw, page: checkedPageOf(raw, 50, held) };
        };
        const whole = (await read(undefined)).page;
        expect(whole.rows).toHaveLength(50);
        expect((await read(whole)).page).toEqual({ ...whole, unchanged: true });
        const older = { ...whole, fingerprint: 'older', rows: whole.rows.slice(0, -1) };
        const again = await read(older);
        const written = again.raw.filter((row) => row.view !== null).map((row) => Number(row.id));
        expect(written).toContain(whole.rows.at(-1)!.id);
        expect(written.filter((id) => older.rows.some((row) => row.id === id))).toEqual([]);
        expect(again.page).toEqual({ ...whole, unchanged: false });
        taken.push(whole.fingerprint);
      }
      return taken;
    });
    expect(fingerprints[1]).toBe(fingerprints[0]);

    // The quoted note is older than the page; taken back, the quote goes with it.
    expect(afterReceipt.body.messages.some((message) => message.id === note.body.id)).toBe(false);
    expect(
      (
        await kit.server.request('DELETE', `/api/csp/chat/secure?id=${note.body.id}`, {
          token: kit.tokens.supervisor,
        })
      ).status,
    ).toBe(204);
    const afterDelete = await open(kit.tokens.owner, ticketId);
    expect(afterDelete.body.messages.find((message) => message.id === quoting.body.id)?.quoted).toBeNull();

    // Opened by its room, the same page.
    const byRoom = await kit.server.request<ChatPageResponse>(
      'GET',
      `/api/csp/chat?roomId=${first.ticket.roomId}`,
      {
        token: kit.tokens.owner,
      },
    );
    expect(byRoom.body).toEqual(afterDelete.body);
  });

  it('checks who asks before answering from memory', async () => {
    const held = await kit.inbound(kit.telegram);
    await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: held.ticket.id, assigneeId: kit.userIds.agent1 },
    });
    expect((await open(kit.tokens.owner, held.ticket.id)).status).toBe(200);
    expect((await open(kit.tokens.agent1, held.ticket.id)).status).toBe(200);
    expect((await open(kit.tokens.agent2, held.ticket.id)).status).toBe(404);
    expect((await open(stranger, held.ticket.id)).status).toBe(404);
    expect((await open(noPermission, held.ticket.id)).status).toBe(403);
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
