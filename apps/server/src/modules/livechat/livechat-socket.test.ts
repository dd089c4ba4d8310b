import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { openSocket } from '../../test/socket-client';
import { startTestServer, type TestServer } from '../../test/test-server';
import {
  createWidget,
  type Frame,
  openVisitorSocket,
  registerVisitor,
  type TestWidget,
  type VisitorSocket,
} from './visitor.test-support';

let server: TestServer;
let owner: { clientId: string; userId: string; email: string };
let ownerToken: string;
let widget: TestWidget;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createClientWithUser(server.database.db);
  ownerToken = (await server.login(owner.email)).accessToken;
  widget = await createWidget(server.database.db, owner.clientId);
});
afterAll(async () => {
  await server?.close();
});

/** A new visitor of the widget with an open socket. */
async function visitorWithSocket(query: Record<string, string> = {}) {
  const { token, visitorId } = await registerVisitor(server, widget);
  const socket = await openVisitorSocket(
    server,
    { widgetId: widget.id, token, ...query },
    { origin: widget.domain },
  );
  await socket.next((frame) => frame.type === 'hello');
  return { token, visitorId, socket };
}

/** Sends a message frame and waits for its ack. */
async function say(socket: VisitorSocket, body: string, id: string = randomUUID()) {
  socket.send({ type: 'message', id, body, ts: Date.now() });
  const ack = await socket.next((frame) => frame.type === 'ack' && frame.id === id);
  return { id, serverId: ack.serverId as number };
}

async function chatOf(serverId: number) {
  const message = await server.request<{ ticketId: number; roomId: string; text: string; status: string }>(
    'GET',
    `/api/csp/chat/id?id=${serverId}`,
    { token: ownerToken },
  );
  expect(message.status).toBe(200);
  return message.body;
}

async function reply(
  ticketId: number,
  text: string,
  kind: 'PublicMessage' | 'InternalMessage' = 'PublicMessage',
) {
  const response = await server.request<{ id: number }>('POST', '/api/csp/chat/secure', {
    token: ownerToken,
    body: { ticketId, clientMessageId: randomUUID(), kind, text },
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

const agentMessage = (body: string) => (frame: Frame) =>
  frame.type === 'message' && frame.from === 'agent' && frame.body === body;

describe('visitor messages', () => {
  it('stores a message as a ticket the owner sees, acks it and tells the owner socket', async () => {
    const agentSocket = await openSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
      authorization: `Bearer ${ownerToken}`,
    });
    await agentSocket.next((message) => message.type === 'hello');
    const { socket } = await visitorWithSocket();
    const { serverId } = await say(socket, 'Halo, pesanan saya belum sampai');

    const created = await agentSocket.next(
      (message) =>
        message.topic === 'inbox.message_created' &&
        (message.payload?.message as { id: number }).id === serverId,
    );
    expect((created.payload?.ticket as { mediaPlatform: string }).mediaPlatform).toBe('LVC');
    const stored = await chatOf(serverId);
    const page = await server.request<{
      messages: Array<{ id: number; text: string; sender: { name: string } }>;
    }>('GET', `/api/csp/chat?ticketId=${stored.ticketId}`, { token: ownerToken });
    expect(page.body.messages.map((message) => message.text)).toEqual(['Halo, pesanan saya belum sampai']);
    expect(page.body.messages[0].sender.name).toBe('Vina Visitor');
    agentSocket.socket.close();
  });

  it("keeps the pre-chat form's answers on the contact, where the agent reads them", async () => {
    const { token } = await registerVisitor(server, widget, { fields: { orderNumber: 'INV-2077' } });
    const socket = await openVisitorSocket(server, { widgetId: widget.id, token }, { origin: widget.domain });
    await socket.next((frame) => frame.type === 'hello');
    const { serverId } = await say(socket, 'Pesanan saya kapan dikirim?');
    const { ticketId } = await chatOf(serverId);
    const detail = await server.request<{ contact: { notes: string | null; email: string | null } }>(
      'GET',
      `/api/csp/chatRoom/detail?ticketId=${ticketId}`,
      { token: ownerToken },
    );
    expect(detail.status).toBe(200);
    expect(detail.body.contact.notes).toBe('Nomor pesanan: INV-2077');
    expect(detail.body.contact.email).toBe('vina@example.com');
    socket.socket.close();
  });

  it('makes one message of the same id sent twice, also from two tabs at once, and acks each with its id', async () => {
    const { token, socket } = await visitorWithSocket();
    const otherTab = await openVisitorSocket(
      server,
      { widgetId: widget.id, token },
      { origin: widget.domain },
    );
    await otherTab.next((frame) => frame.type === 'hello');
    const id = randomUUID();
    // Two tabs race past the socket's memory of acks to the conversation's own dedupe.
    socket.send({ type: 'message', id, body: 'Sekali saja' });
    otherTab.send({ type: 'message', id, body: 'Sekali saja' });
    const first = await socket.next((frame) => frame.type === 'ack' && frame.id === id);
    const second = await otherTab.next((frame) => frame.type === 'ack' && frame.id === id);
    socket.send({ type: 'message', id, body: 'Sekali saja' });
    await socket.next(
      () => socket.frames.filter((seen) => seen.type === 'ack' && seen.id === id).length === 2,
    );
    const acks = socket.frames.filter((frame) => frame.type === 'ack' && frame.id === id);
    expect(new Set([first.serverId, second.serverId, ...acks.map((ack) => ack.serverId)]).size).toBe(1);
    const rows = await server.database.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.clientId, owner.clientId), eq(messages.clientMessageId, id)));
    expect(rows).toHaveLength(1);
  });

  it('keeps HTML in a message as text, and refuses empty and oversized messages', async () => {
    const { socket } = await visitorWithSocket();
    const html = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const { serverId } = await say(socket, html);
    expect((await chatOf(serverId)).text).toBe(html);

    const empty = randomUUID();
    socket.send({ type: 'message', id: empty, body: '   ' });
    expect(await socket.next((frame) => frame.type === 'error' && frame.id === empty)).toMatchObject({
      code: 'empty',
      message: 'Message is empty',
    });
    const long = randomUUID();
    socket.send({ type: 'message', id: long, body: 'x'.repeat(4097) });
    expect(await socket.next((frame) => frame.type === 'error' && frame.id === long)).toMatchObject({
      code: 'too_long',
    });
  });

  it('refuses messages past 20 in 30 seconds without storing them', async () => {
    const { socket } = await visitorWithSocket();
    const ids = Array.from({ length: 21 }, () => randomUUID());
    for (const id of ids) socket.send({ type: 'message', id, body: 'spam' });
    const refused = await socket.next((frame) => frame.type === 'error' && frame.id === ids[20]);
    expect(refused.code).toBe('rate_limited');
    await socket.next((frame) => frame.type === 'ack' && frame.id === ids[19]);
    const stored = await server.database.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.clientId, owner.clientId), eq(messages.clientMessageId, ids[20])));
    expect(stored).toHaveLength(0);
  });
});

describe('visitor attachments', () => {
  const upload = async (token: string) => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from('%PDF-1.4 invoice')], { type: 'application/pdf' }),
      'invoice.pdf',
    );
    const response = await fetch(`${server.url}/api/livechat/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { id: string }).id;
  };

  it("sends the visitor's own upload with a message, and refuses another visitor's file", async () => {
    const { token, socket } = await visitorWithSocket();
    const fileId = await upload(token);
    const id = randomUUID();
    socket.send({ type: 'message', id, body: '', attachmentIds: [fileId] });
    const ack = await socket.next((frame) => frame.type === 'ack' && frame.id === id);
    const stored = await server.request<{ attachments: Array<{ name: string; type: string }> }>(
      'GET',
      `/api/csp/chat/id?id=${ack.serverId}`,
      { token: ownerToken },
    );
    expect(stored.body.attachments).toEqual([expect.objectContaining({ type: 'document' })]);
    expect(stored.body.attachments[0].name).toContain('invoice.pdf');

    const other = await visitorWithSocket();
    const stolen = randomUUID();
    other.socket.send({ type: 'message', id: stolen, body: 'lihat ini', attachmentIds: [fileId] });
    expect(await other.socket.next((frame) => frame.type === 'error' && frame.id === stolen)).toMatchObject({
      code: 'attachment',
    });
  });
});

describe('agent side reaching the visitor', () => {
  it('sends an agent reply as from the agent, never an internal note, and says who joined', async () => {
    const { socket } = await visitorWithSocket();
    const { serverId } = await say(socket, 'Apakah stok masih ada?');
    const { ticketId } = await chatOf(serverId);

    await reply(ticketId, 'Catatan internal: cek gudang', 'InternalMessage');
    await reply(ticketId, 'Masih ada, kak!');
    const answer = await socket.next(agentMessage('Masih ada, kak!'));
    expect(answer).toMatchObject({ from: 'agent', id: null, attachments: [] });
    expect(answer.agentName).toEqual(expect.any(String));
    // The live-chat adapter has nothing to call: the delivery job marks the reply sent.
    await socket.next((frame) => frame.type === 'status' && frame.serverId === answer.serverId);
    expect(socket.frames.find((frame) => frame.type === 'status')).toMatchObject({ status: 'SENT' });
    expect(await socket.next((frame) => frame.type === 'agent_joined')).toMatchObject({
      name: answer.agentName,
    });
    expect(socket.frames.some((frame) => JSON.stringify(frame).includes('Catatan internal'))).toBe(false);
  });

  it('passes typing both ways, and read marks both ways', async () => {
    const { socket } = await visitorWithSocket();
    const first = await say(socket, 'Halo');
    const { ticketId } = await chatOf(first.serverId);
    const agentSocket = await openSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
      authorization: `Bearer ${ownerToken}`,
    });
    await agentSocket.next((message) => message.type === 'hello');
    agentSocket.socket.send(JSON.stringify({ type: 'subscribe', room: `ticket:${ticketId}` }));
    await agentSocket.next((message) => message.type === 'subscribed');

    socket.send({ type: 'typing', typing: true });
    const typing = await agentSocket.next((message) => message.topic === 'inbox.typing');
    expect(typing.payload).toMatchObject({ who: 'CUSTOMER', typing: true });
    await server.request('POST', '/api/csp/chatRoom/typing', {
      token: ownerToken,
      body: { ticketId, typing: true },
    });
    expect(await socket.next((frame) => frame.type === 'typing')).toMatchObject({ typing: true });

    const agentId = await reply(ticketId, 'Ada yang bisa dibantu?');
    await socket.next(agentMessage('Ada yang bisa dibantu?'));
    socket.send({ type: 'read', upToServerId: agentId });
    await expect.poll(async () => (await chatOf(agentId)).status).toBe('READ');

    const second = await say(socket, 'Ongkirnya berapa?');
    await server.request('POST', '/api/csp/chatRoom/read', { token: ownerToken, body: { ticketId } });
    await socket.next((frame) => frame.type === 'read' && frame.upToServerId === second.serverId);
    agentSocket.socket.close();
  });
});

describe('resume and refusal', () => {
  it('delivers what was missed after a reconnect with since, and the history to a fresh page', async () => {
    const { token, socket } = await visitorWithSocket();
    const first = await say(socket, 'Saya tunggu ya');
    const { ticketId } = await chatOf(first.serverId);
    socket.socket.close();
    await socket.closed;

    await reply(ticketId, 'Balasan pertama');
    await reply(ticketId, 'Balasan kedua');
    const resumed = await openVisitorSocket(
      server,
      { widgetId: widget.id, token, since: String(first.serverId) },
      { origin: widget.domain },
    );
    await resumed.next((frame) => frame.type === 'hello');
    const bodies = resumed.frames.filter((frame) => frame.type === 'message').map((frame) => frame.body);
    expect(bodies).toEqual(['Balasan pertama', 'Balasan kedua']);

    const fresh = await openVisitorSocket(server, { widgetId: widget.id, token }, { origin: widget.domain });
    await fresh.next((frame) => frame.type === 'hello');
    const history = fresh.frames.filter((frame) => frame.type === 'message');
    expect(history.map((frame) => frame.body)).toEqual([
      'Saya tunggu ya',
      'Balasan pertama',
      'Balasan kedua',
    ]);
    expect(history[0]).toMatchObject({ from: 'visitor', id: first.id });
  });

  it("closes the socket for another widget's token, a forged token and a foreign site", async () => {
    const otherWidget = await createWidget(server.database.db, owner.clientId);
    const { token } = await registerVisitor(server, otherWidget);
    const wrongWidget = await openVisitorSocket(server, { widgetId: widget.id, token });
    expect(await wrongWidget.closed).toBe(4401);
    const forged = await openVisitorSocket(server, {
      widgetId: otherWidget.id,
      token: `${token.slice(0, -4)}AAAA`,
    });
    expect(await forged.closed).toBe(4401);
    const foreign = await openVisitorSocket(
      server,
      { widgetId: otherWidget.id, token },
      { origin: 'https://elsewhere.example' },
    );
    expect(await foreign.closed).toBe(4403);
    const otherClient = await createClientWithUser(server.database.db);
    const strangerWidget = await createWidget(server.database.db, otherClient.clientId);
    const stranger = await registerVisitor(server, strangerWidget);
    const crossTenant = await openVisitorSocket(server, { widgetId: widget.id, token: stranger.token });
    expect(await crossTenant.closed).toBe(4401);
  });
});
