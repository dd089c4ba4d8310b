import { describe, expect, it } from 'vitest';
import { budi, refusal, type TelegramAnswer, useTelegramSimulator } from './telegram-simulator.test-support';

const kit = useTelegramSimulator();

describe('TelegramSimulator Bot API', () => {
  it('answers getMe for a BotFather-shaped token, 401 for an unknown one and 404 for an unknown method', async () => {
    const bot = kit.simulator.addBot();
    expect(bot.token).toMatch(/^\d+:[A-Za-z0-9_-]{35}$/);
    expect(bot.token.startsWith(`${bot.id}:`)).toBe(true);
    expect(kit.simulator.addBot().username).not.toBe(bot.username);

    const viaQuery = await fetch(`${kit.simulator.url}/bot${bot.token}/getMe`);
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
    expect(await kit.call(stranger, 'getMe')).toEqual(refusal(401, 'Unauthorized'));
    expect(await kit.call(bot.token, 'getMyFriends')).toEqual(refusal(404, 'Not Found'));
  });

  it('validates setWebhook and reports the webhook through getWebhookInfo', async () => {
    const bot = kit.simulator.addBot();
    const missing = await kit.call(bot.token, 'setWebhook', {});
    expect(missing.status).toBe(400);
    expect(missing.answer.description).toMatch(/^Bad Request: bad webhook: /);

    const badSecret = await kit.call(bot.token, 'setWebhook', {
      url: kit.receiver.url,
      secret_token: 'not allowed!',
    });
    expect(badSecret).toEqual(refusal(400, 'Bad Request: secret token contains unallowed characters'));
    const tooLong = await kit.call(bot.token, 'setWebhook', {
      url: kit.receiver.url,
      secret_token: 'a'.repeat(257),
    });
    expect(tooLong.status).toBe(400);
    expect(kit.simulator.webhookOf(bot.token)).toBeNull();

    const set = await kit.call(bot.token, 'setWebhook', {
      url: kit.receiver.url,
      secret_token: 'rahasia_123-ABC',
      allowed_updates: ['message', 'my_chat_member'],
    });
    expect(set).toMatchObject({ status: 200, answer: { ok: true, result: true } });
    expect(kit.simulator.webhookOf(bot.token)).toEqual({
      url: kit.receiver.url,
      secretToken: 'rahasia_123-ABC',
      allowedUpdates: ['message', 'my_chat_member'],
    });
    const info = await kit.call(bot.token, 'getWebhookInfo');
    expect(info.answer.result).toEqual({
      url: kit.receiver.url,
      has_custom_certificate: false,
      pending_update_count: 0,
      max_connections: 40,
      allowed_updates: ['message', 'my_chat_member'],
    });

    expect((await kit.call(bot.token, 'deleteWebhook')).answer.result).toBe(true);
    expect(kit.simulator.webhookOf(bot.token)).toBeNull();
  });

  it("posts a customer's message to the webhook with the secret header, retrying after a 500", async () => {
    const bot = kit.simulator.addBot();
    await kit.call(bot.token, 'setWebhook', { url: kit.receiver.url, secret_token: 'sekret' });

    const first = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'halo kak' });
    expect(first).toMatchObject({ status: 200, attempts: 1 });
    expect(first.update.update_id).toBeGreaterThanOrEqual(100_000_000);
    expect(first.update.message).toMatchObject({
      message_id: 1,
      from: { id: budi.chatId, is_bot: false, first_name: 'Budi', last_name: 'Santoso', language_code: 'id' },
      chat: { id: budi.chatId, type: 'private', first_name: 'Budi', username: 'budis' },
      text: 'halo kak',
    });
    expect(kit.receiver.received).toEqual([
      { secret: 'sekret', contentType: 'application/json', update: first.update },
    ]);

    kit.receiver.statuses.push(500);
    const second = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'masih ada stok?' });
    expect(second).toMatchObject({ status: 200, attempts: 2 });
    expect(second.update.update_id).toBe(first.update.update_id + 1);
    expect(kit.receiver.received.map((delivery) => delivery.update.update_id)).toEqual([
      first.update.update_id,
      second.update.update_id,
      second.update.update_id,
    ]);
    const info = await kit.call<Record<string, unknown>>(bot.token, 'getWebhookInfo');
    expect(info.answer.result).toMatchObject({
      pending_update_count: 0,
      last_error_message: 'Wrong response from the webhook: 500 Internal Server Error',
    });

    kit.receiver.statuses.push(503, 503, 503);
    const refused = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'halo?' });
    expect(refused).toMatchObject({ status: 503, attempts: 3 });
    expect((await kit.call(bot.token, 'getWebhookInfo')).answer.result).toMatchObject({
      pending_update_count: 1,
    });
  });

  it('sends messages only to chats that wrote, not to blocked ones, and fails as programmed', async () => {
    const bot = kit.simulator.addBot();
    await kit.call(bot.token, 'setWebhook', { url: kit.receiver.url });
    const { update } = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'ada diskon?' });

    const reply = await kit.call<Record<string, unknown>>(bot.token, 'sendMessage', {
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
    expect(kit.simulator.sent(bot.token)).toMatchObject([
      { chatId: budi.chatId, method: 'sendMessage', text: 'Ada kak, 10%', message: reply.answer.result },
    ]);

    expect(await kit.call(bot.token, 'sendMessage', { chat_id: 42, text: 'halo' })).toEqual(
      refusal(400, 'Bad Request: chat not found'),
    );
    const empty = await kit.call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: '' });
    expect(empty.answer.description).toBe('Bad Request: message text is empty');
    const long = await kit.call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'a'.repeat(4097) });
    expect(long.answer.description).toBe('Bad Request: message is too long');

    kit.simulator.failNext(bot.token, 'sendMessage', {
      code: 429,
      description: 'Too Many Requests: retry after 7',
      retryAfter: 7,
    });
    expect(await kit.call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'satu' })).toEqual({
      status: 429,
      answer: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 7',
        parameters: { retry_after: 7 },
      },
    });
    const next = await kit.call<{ message_id: number }>(bot.token, 'sendMessage', {
      chat_id: budi.chatId,
      text: 'dua',
    });
    expect(next.answer.result?.message_id).toBe(update.message!.message_id + 2);

    const blocked = await kit.simulator.customerBlocks(bot.token, budi.chatId);
    expect(blocked.status).toBe(200);
    expect(kit.receiver.received.at(-1)?.update.my_chat_member).toMatchObject({
      chat: { id: budi.chatId, type: 'private' },
      new_chat_member: { user: { id: bot.id, is_bot: true }, status: 'kicked' },
    });
    expect(await kit.call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'halo?' })).toEqual(
      refusal(403, 'Forbidden: bot was blocked by the user'),
    );
    kit.simulator.unblock(bot.token, budi.chatId);
    expect(
      (await kit.call(bot.token, 'sendMessage', { chat_id: budi.chatId, text: 'halo lagi' })).status,
    ).toBe(200);
  });

  it('takes a multipart sendDocument and serves the bytes back through getFile and the file link', async () => {
    const bot = kit.simulator.addBot();
    await kit.simulator.customerWrites(bot.token, { ...budi, text: 'minta invoice' });
    const bytes = Buffer.from('%PDF-1.4 invoice #1234\n%%EOF');
    const form = new FormData();
    form.set('chat_id', String(budi.chatId));
    form.set('caption', 'Invoice kak');
    form.set('document', new Blob([bytes], { type: 'application/pdf' }), 'invoice-1234.pdf');
    const response = await fetch(`${kit.simulator.url}/bot${bot.token}/sendDocument`, {
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
    expect(kit.simulator.sent(bot.token)[0]).toMatchObject({
      method: 'sendDocument',
      fileName: 'invoice-1234.pdf',
      caption: 'Invoice kak',
      bytes,
    });

    const fileId = answer.result!.document.file_id;
    const file = await kit.call<{ file_id: string; file_size: number; file_path: string }>(
      bot.token,
      'getFile',
      {
        file_id: fileId,
      },
    );
    expect(file.answer.result).toMatchObject({ file_id: fileId, file_size: bytes.length });
    const download = await fetch(
      `${kit.simulator.url}/file/bot${bot.token}/${file.answer.result!.file_path}`,
    );
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

    expect(await kit.call(bot.token, 'getFile', { file_id: 'BQACAgUAAxkBAAnope' })).toEqual(
      refusal(400, 'Bad Request: invalid file_id'),
    );
    const caption = await kit.call(bot.token, 'sendDocument', {
      chat_id: budi.chatId,
      document: fileId,
      caption: 'c'.repeat(1025),
    });
    expect(caption.answer.description).toBe('Bad Request: message caption is too long');
  });
});
