import { crc32 } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  TelegramSimulator,
  type TelegramUpdate,
  telegramSecretHeader,
  telegramTextUpdate,
} from './telegram.simulator';

interface TelegramAnswer<T = unknown> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/** A server's webhook endpoint: it records what Telegram posted and answers the next programmed status. */
interface Receiver {
  url: string;
  received: Array<{ secret: string | undefined; contentType: string | undefined; update: TelegramUpdate }>;
  statuses: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const app: FastifyInstance = Fastify({ logger: false });
  const receiver = { received: [], statuses: [] } as unknown as Receiver;
  app.post('/webhooks/telegram', async (request, reply) => {
    receiver.received.push({
      secret: request.headers[telegramSecretHeader] as string | undefined,
      contentType: request.headers['content-type'],
      update: request.body as TelegramUpdate,
    });
    return reply.code(receiver.statuses.shift() ?? 200).send({});
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  receiver.url = `${address}/webhooks/telegram`;
  receiver.close = () => app.close();
  return receiver;
}

/** The first bytes of a PNG: enough for anything that reads its size from the IHDR chunk. */
function pngHeader(width: number, height: number): Buffer {
  const data = Buffer.alloc(17);
  data.write('IHDR', 0, 'latin1');
  data.writeUInt32BE(width, 4);
  data.writeUInt32BE(height, 8);
  data.set([8, 2, 0, 0, 0], 12);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(data));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    length,
    data,
    checksum,
  ]);
}

let simulator: TelegramSimulator;
let receiver: Receiver;

beforeAll(async () => {
  simulator = await TelegramSimulator.start();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await simulator?.stop();
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.statuses.length = 0;
});

async function call<T = unknown>(token: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${simulator.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return { status: response.status, answer: (await response.json()) as TelegramAnswer<T> };
}

/** How Telegram refuses a call: the HTTP status is the error_code. */
const refusal = (code: number, description: string) => ({
  status: code,
  answer: { ok: false, error_code: code, description },
});

const budi = { chatId: 5_512_345_678, firstName: 'Budi', lastName: 'Santoso', username: 'budis' };

describe('TelegramSimulator Bot API', () => {
  it('answers getMe for a BotFather-shaped token, 401 for an unknown one and 404 for an unknown method', async () => {
    const bot = simulator.addBot();
    expect(bot.token).toMatch(/^\d+:[A-Za-z0-9_-]{35}$/);
    expect(bot.token.startsWith(`${bot.id}:`)).toBe(true);
    expect(simulator.addBot().username).not.toBe(bot.username);

    const viaQuery = await fetch(`${simulator.url}/bot${bot.token}/getMe`);
    expect(viaQuery.status).toBe(200);
    expect(await viaQuery.json()).toEqual({
      ok: true,
      result: {
        id: bot.id,
        is_bot: true,
        first_name: bot.firstName,
        username: bot.username,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
    });

    const stranger = `${bot.id}:AA${'x'.repeat(33)}`;
    expect(await call(stranger, 'getMe')).toEqual(refusal(401, 'Unauthorized'));
    expect(await call(bot.token, 'getMyFriends')).toEqual(refusal(404, 'Not Found'));
  });

  it('validates setWebhook and reports the webhook through getWebhookInfo', async () => {
    const bot = simulator.addBot();
    const missing = await call(bot.token, 'setWebhook', {});
    expect(missing.status).toBe(400);
    expect(missing.answer.description).toMatch(/^Bad Request: bad webhook: /);

    const badSecret = await call(bot.token, 'setWebhook', {
      url: receiver.url,
      secret_token: 'not allowed!',
    });
    expect(badSecret).toEqual(refusal(400, 'Bad Request: secret token contains unallowed characters'));
    const tooLong = await call(bot.token, 'setWebhook', { url: receiver.url, secret_token: 'a'.repeat(257) });
    expect(tooLong.status).toBe(400);
    expect(simulator.webhookOf(bot.token)).toBeNull();

    const set = await call(bot.token, 'setWebhook', {
      url: receiver.url,
      secret_token: 'rahasia_123-ABC',
      allowed_updates: ['message', 'my_chat_member'],
    });
    expect(set).toMatchObject({ status: 200, answer: { ok: true, result: true } });
    expect(simulator.webhookOf(bot.token)).toEqual({
      url: receiver.url,
      secretToken: 'rahasia_123-ABC',
      allowedUpdates: ['message', 'my_chat_member'],
    });
    const info = await call(bot.token, 'getWebhookInfo');
    expect(info.answer.result).toEqual({
      url: receiver.url,
      has_custom_certificate: false,
      pending_update_count: 0,
      max_connections: 40,
      allowed_updates: ['message', 'my_chat_member'],
    });

    expect((await call(bot.token, 'deleteWebhook')).answer.result).toBe(true);
    expect(simulator.webhookOf(bot.token)).toBeNull();
  });

  it("posts a customer's message to the webhook with the secret header, retrying after a 500", async () => {
    const bot = simulator.addBot();
    await call(bot.token, 'setWebhook', { url: receiver.url, secret_token: 'sekret' });

    const first = await simulator.customerWrites(bot.token, { ...budi, text: 'halo kak' });
    expect(first).toMatchObject({ status: 200, attempts: 1 });
    expect(first.update.update_id).toBeGreaterThanOrEqual(100_000_000);
    expect(first.update.message).toMatchObject({
      message_id: 1,
      from: { id: budi.chatId, is_bot: false, first_name: 'Budi', last_name: 'Santoso', language_code: 'id' },
      chat: { id: budi.chatId, type: 'private', first_name: 'Budi', username: 'budis' },
      text: 'halo kak',
    });
    expect(receiver.received).toEqual([
      { secret: 'sekret', contentType: 'application/json', update: first.update },
    ]);

    receiver.statuses.push(500);
    const second = await simulator.customerWrites(bot.token, { ...budi, text: 'masih ada stok?' });
    expect(second).toMatchObject({ status: 200, attempts: 2 });
    expect(second.update.update_id).toBe(first.update.update_id + 1);
    expect(receiver.received.map((delivery) => delivery.update.update_id)).toEqual([
      first.update.update_id,
      second.update.update_id,
      second.update.update_id,
    ]);
    const info = await call<Record<string, unknown>>(bot.token, 'getWebhookInfo');
    expect(info.answer.result).toMatchObject({
      pending_update_count: 0,
      last_error_message: 'Wrong response from the webhook: 500 Internal Server Error',
    });

    receiver.statuses.push(503, 503, 503);
    const refused = await simulator.customerWrites(bot.token, { ...budi, text: 'halo?' });
    expect(refused).toMatchObject({ status: 503, attempts: 3 });
    expect((await call(bot.token, 'getWebhookInfo')).answer.result).toMatchObject({
      pending_update_count: 1,
    });
  });

  it('sends messages only to chats that wrote, not to blocked ones, and fails as programmed', async () => {
    const bot = simulator.addBot();
    await call(bot.token, 'setWebhook', { url: receiver.url });
    const { update } = await simulator.customerWrites(bot.token, { ...budi, text: 'ada diskon?' });

    const reply = await call<Record<string, unknown>>(bot.token, 'sendMessage', {
      chat_id: String(budi.chatId),
      text: 'Ada kak, 10%',
      reply_parameters: { message_id: update.message!.message_id },
    });
    expect(reply.status).toBe(200);
    expect(reply.answer.result).toMatchObject({
      message_id: update.message!.message_id + 1,
      from: { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username },
      chat: { id: budi.chatId, first_name: 'Budi', type: 'private' },
      text: 'Ada kak, 10%',
      reply_to_message: { message_id: update.message!.message_id, text: 'ada diskon?' },
    });
    expect(simulator.sent(bot.token)).toMatchObject([
      { chatId: budi.chatId, method: 'sendMessage', text: 'Ada kak, 10%', message: reply.answer.result },
    ]);

    expect(await call(bot.token, 'sendMessage', { chat_id: 42, text: 'halo' })).toEqual(
      refusal(400, 'Bad Request: chat not found'),
    );
    const empty = await call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: '' });
    expect(empty.answer.description).toBe('Bad Request: message text is empty');
    const long = await call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'a'.repeat(4097) });
    expect(long.answer.description).toBe('Bad Request: message is too long');

    simulator.failNext(bot.token, 'sendMessage', {
      code: 429,
      description: 'Too Many Requests: retry after 7',
      retryAfter: 7,
    });
    expect(await call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'satu' })).toEqual({
      status: 429,
      answer: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 7',
        parameters: { retry_after: 7 },
      },
    });
    const next = await call<{ message_id: number }>(bot.token, 'sendMessage', {
      chat_id: budi.chatId,
      text: 'dua',
    });
    expect(next.answer.result?.message_id).toBe(update.message!.message_id + 2);

    const blocked = await simulator.customerBlocks(bot.token, budi.chatId);
    expect(blocked.status).toBe(200);
    expect(receiver.received.at(-1)?.update.my_chat_member).toMatchObject({
      chat: { id: budi.chatId, type: 'private' },
      new_chat_member: { user: { id: bot.id, is_bot: true }, status: 'kicked' },
    });
    expect(await call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'halo?' })).toEqual(
      refusal(403, 'Forbidden: bot was blocked by the user'),
    );
    simulator.unblock(bot.token, budi.chatId);
    expect((await call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'halo lagi' })).status).toBe(
      200,
    );
  });

  it('takes a multipart sendDocument and serves the bytes back through getFile and the file link', async () => {
    const bot = simulator.addBot();
    await simulator.customerWrites(bot.token, { ...budi, text: 'minta invoice' });
    const bytes = Buffer.from('%PDF-1.4 invoice #1234\n%%EOF');
    const form = new FormData();
    form.set('chat_id', String(budi.chatId));
    form.set('caption', 'Invoice kak');
    form.set('document', new Blob([bytes], { type: 'application/pdf' }), 'invoice-1234.pdf');
    const response = await fetch(`${simulator.url}/bot${bot.token}/sendDocument`, {
      method: 'POST',
      body: form,
    });
    const answer = (await response.json()) as TelegramAnswer<{
      message_id: number;
      caption: string;
      document: { file_id: string; file_name: string; mime_type: string; file_size: number };
    }>;
    expect(response.status).toBe(200);
    expect(answer.result).toMatchObject({
      message_id: 2,
      caption: 'Invoice kak',
      document: { file_name: 'invoice-1234.pdf', mime_type: 'application/pdf', file_size: bytes.length },
    });
    expect(simulator.sent(bot.token)[0]).toMatchObject({
      method: 'sendDocument',
      fileName: 'invoice-1234.pdf',
      caption: 'Invoice kak',
      bytes,
    });

    const fileId = answer.result!.document.file_id;
    const file = await call<{ file_id: string; file_size: number; file_path: string }>(bot.token, 'getFile', {
      file_id: fileId,
    });
    expect(file.answer.result).toMatchObject({ file_id: fileId, file_size: bytes.length });
    const download = await fetch(`${simulator.url}/file/bot${bot.token}/${file.answer.result!.file_path}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

    expect(await call(bot.token, 'getFile', { file_id: 'BQACAgUAAxkBAAnope' })).toEqual(
      refusal(400, 'Bad Request: invalid file_id'),
    );
    const caption = await call(bot.token, 'sendDocument', {
      chat_id: budi.chatId,
      document: fileId,
      caption: 'c'.repeat(1025),
    });
    expect(caption.answer.description).toBe('Bad Request: message caption is too long');
  });

  it("delivers a customer's photo as sizes, largest last, whose file holds the original bytes", async () => {
    const bot = simulator.addBot();
    await call(bot.token, 'setWebhook', { url: receiver.url });
    const photo = pngHeader(1000, 750);
    const { update } = await simulator.customerWrites(bot.token, {
      ...budi,
      photo: { bytes: photo, caption: 'ini' },
    });
    const sizes = update.message!.photo!;
    expect(sizes.map((size) => [size.width, size.height])).toEqual([
      [90, 68],
      [320, 240],
      [800, 600],
      [1000, 750],
    ]);
    expect(update.message!.caption).toBe('ini');
    const file = await call<{ file_path: string }>(bot.token, 'getFile', { file_id: sizes.at(-1)!.file_id });
    const download = await fetch(`${simulator.url}/file/bot${bot.token}/${file.answer.result!.file_path}`);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(photo);
  });

  it('refuses getUpdates while a webhook is set, then hands out queued updates confirmed by offset', async () => {
    const bot = simulator.addBot();
    await call(bot.token, 'setWebhook', { url: receiver.url });
    expect(await call(bot.token, 'getUpdates')).toEqual(
      refusal(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      ),
    );

    await call(bot.token, 'deleteWebhook');
    const queued = await simulator.customerWrites(bot.token, { ...budi, text: 'pagi' });
    expect(queued).toMatchObject({ status: 0, attempts: 0 });
    const polled = await fetch(`${simulator.url}/bot${bot.token}/getUpdates?timeout=0`);
    expect(((await polled.json()) as TelegramAnswer).result).toEqual([queued.update]);

    const confirmed = await call<TelegramUpdate[]>(bot.token, 'getUpdates', {
      offset: queued.update.update_id + 1,
    });
    expect(confirmed.answer.result).toEqual([]);

    const waiting = call<TelegramUpdate[]>(bot.token, 'getUpdates', { timeout: 5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const later = await simulator.customerWrites(bot.token, { ...budi, text: 'siang' });
    expect((await waiting).answer.result).toEqual([later.update]);
  });

  it('serves the introspection API other processes use', async () => {
    const created = await fetch(`${simulator.url}/__simulator/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench_shop_bot', firstName: 'Bench Shop' }),
    });
    const bot = (await created.json()) as { token: string; username: string };
    expect(bot.username).toBe('bench_shop_bot');
    expect((await fetch(`${simulator.url}/__simulator/bots/${bot.token}/webhook`)).status).toBe(404);

    await call(bot.token, 'setWebhook', { url: receiver.url, secret_token: 'abc' });
    const webhook = await fetch(`${simulator.url}/__simulator/bots/${bot.token}/webhook`);
    expect(await webhook.json()).toEqual({ url: receiver.url, secretToken: 'abc', allowedUpdates: [] });

    const chat = await fetch(`${simulator.url}/__simulator/bots/${bot.token}/chats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: 777, firstName: 'Sari' }),
    });
    expect(chat.status).toBe(204);
    const built = telegramTextUpdate({
      updateId: 5,
      messageId: 1,
      chatId: 777,
      firstName: 'Sari',
      text: 'x',
    });
    expect(built.message).toMatchObject({ chat: { id: 777, type: 'private' }, from: { is_bot: false } });
    await call(bot.token, 'sendMessage', { chat_id: 777, text: 'Halo Sari' });
    const sent = await fetch(`${simulator.url}/__simulator/bots/${bot.token}/sent`);
    expect(await sent.json()).toMatchObject([{ chatId: 777, method: 'sendMessage', text: 'Halo Sari' }]);
    expect(await (await fetch(`${simulator.url}/api/health`)).json()).toEqual({ status: 'ok' });

    const written = await fetch(`${simulator.url}/__simulator/bots/${bot.token}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: 778, firstName: 'Tono', text: 'Pesanan saya sampai?' }),
    });
    expect(await written.json()).toMatchObject({ status: 200, attempts: 1 });
    expect(receiver.received.at(-1)).toMatchObject({
      secret: 'abc',
      update: { message: { chat: { id: 778 }, text: 'Pesanan saya sampai?' } },
    });
    const refused = await fetch(`${simulator.url}/__simulator/bots/${bot.token}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: 778 }),
    });
    expect(refused.status).toBe(400);
  });
});
