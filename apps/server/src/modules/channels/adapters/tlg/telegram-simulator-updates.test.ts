import { describe, expect, it } from 'vitest';
import { type TelegramUpdate, telegramTextUpdate } from './telegram.simulator';
import {
  budi,
  pngHeader,
  refusal,
  type TelegramAnswer,
  useTelegramSimulator,
} from './telegram-simulator.test-support';

const kit = useTelegramSimulator();

describe('TelegramSimulator updates and its own API', () => {
  it("delivers a customer's photo as sizes, largest last, whose file holds the original bytes", async () => {
    const bot = kit.simulator.addBot();
    await kit.call(bot.token, 'setWebhook', { url: kit.receiver.url });
    const photo = pngHeader(1000, 750);
    const { update } = await kit.simulator.customerWrites(bot.token, {
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
    const file = await kit.call<{ file_path: string }>(bot.token, 'getFile', {
      file_id: sizes.at(-1)!.file_id,
    });
    const download = await fetch(
      `${kit.simulator.url}/file/bot${bot.token}/${file.answer.result!.file_path}`,
    );
    expect(Buffer.from(await download.arrayBuffer())).toEqual(photo);
  });

  it('refuses getUpdates while a webhook is set, then hands out queued updates confirmed by offset', async () => {
    const bot = kit.simulator.addBot();
    await kit.call(bot.token, 'setWebhook', { url: kit.receiver.url });
    expect(await kit.call(bot.token, 'getUpdates')).toEqual(
      refusal(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      ),
    );

    await kit.call(bot.token, 'deleteWebhook');
    const queued = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'pagi' });
    expect(queued).toMatchObject({ status: 0, attempts: 0 });
    const polled = await fetch(`${kit.simulator.url}/bot${bot.token}/getUpdates?timeout=0`);
    expect(((await polled.json()) as TelegramAnswer).result).toEqual([queued.update]);

    const confirmed = await kit.call<TelegramUpdate[]>(bot.token, 'getUpdates', {
      offset: queued.update.update_id + 1,
    });
    expect(confirmed.answer.result).toEqual([]);

    const waiting = kit.call<TelegramUpdate[]>(bot.token, 'getUpdates', { timeout: 5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const later = await kit.simulator.customerWrites(bot.token, { ...budi, text: 'siang' });
    expect((await waiting).answer.result).toEqual([later.update]);
  });

  it('serves the introspection API other processes use', async () => {
    const created = await fetch(`${kit.simulator.url}/__simulator/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench_shop_bot', firstName: 'Bench Shop' }),
    });
    const bot = (await created.json()) as { token: string; username: string };
    expect(bot.username).toBe('bench_shop_bot');
    expect((await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/webhook`)).status).toBe(404);

    await kit.call(bot.token, 'setWebhook', { url: kit.receiver.url, secret_token: 'abc' });
    const webhook = await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/webhook`);
    expect(await webhook.json()).toEqual({ url: kit.receiver.url, secretToken: 'abc', allowedUpdates: [] });

    const chat = await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/chats`, {
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
    await kit.call(bot.token, 'sendMessage', { chat_id: 777, text: 'Halo Sari' });
    const sent = await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/sent`);
    expect(await sent.json()).toMatchObject([{ chatId: 777, method: 'sendMessage', text: 'Halo Sari' }]);
    expect(await (await fetch(`${kit.simulator.url}/api/health`)).json()).toEqual({ status: 'ok' });

    const written = await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: 778, firstName: 'Tono', text: 'Pesanan saya sampai?' }),
    });
    expect(await written.json()).toMatchObject({ status: 200, attempts: 1 });
    expect(kit.receiver.received.at(-1)).toMatchObject({
      secret: 'abc',
      update: { message: { chat: { id: 778 }, text: 'Pesanan saya sampai?' } },
    });
    const refused = await fetch(`${kit.simulator.url}/__simulator/bots/${bot.token}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: 778 }),
    });
    expect(refused.status).toBe(400);
  });
});
