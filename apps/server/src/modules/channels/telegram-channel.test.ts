import type { ChannelAccountList, MessageView } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/test-server';
import { eventually } from '../inbox/conversation.fixtures';
import { jpegOf } from '../media/media.test-support';
import type { TelegramSimulator } from './adapters/tlg/telegram.simulator';
import { startTelegramKit, type TelegramKit } from './telegram-channel.test-support';

let kit: TelegramKit;
let server: TestServer;
let telegram: TelegramSimulator;
let owner: { clientId: string; token: string };
let other: { clientId: string; token: string };
let agentToken: string;

beforeAll(async () => {
  kit = await startTelegramKit();
  ({ server, telegram } = kit);
  owner = await kit.signedIn();
  other = await kit.signedIn();
  agentToken = (await kit.signedIn('USC')).token;
});
afterAll(async () => {
  await kit?.close();
});

describe('connecting a Telegram bot', () => {
  it('checks the token with Telegram, then sets the webhook with a secret', async () => {
    const bot = telegram.addBot({ username: 'toko_satu_bot', firstName: 'Toko Satu' });
    const response = await kit.connect(owner.token, bot.token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      channel: 'TLG',
      name: 'Toko Satu',
      handle: '@toko_satu_bot',
      status: 'CONNECTED',
    });
    const webhook = telegram.webhookOf(bot.token);
    expect(webhook?.url).toBe(`${server.url}/api/webhooks/telegram/${response.body.id}`);
    expect(webhook?.secretToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);

    const list = await server.request<ChannelAccountList>('GET', '/api/channels/accounts', {
      token: owner.token,
    });
    expect(list.body.accounts.map((account) => account.id)).toContain(response.body.id);
    // The token and the secret are never answered, and are stored sealed.
    expect(JSON.stringify(list.body)).not.toContain(bot.token);
    const strangers = await server.request<ChannelAccountList>('GET', '/api/channels/accounts', {
      token: other.token,
    });
    expect(strangers.body.accounts.map((account) => account.id)).not.toContain(response.body.id);
  });

  it('refuses a token Telegram does not know, one in use, and a second bot of a client', async () => {
    const malformed = await kit.connect(owner.token, 'not-a-token');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('Invalid token');
    const unknown = await kit.connect(owner.token, '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Invalid token');

    const [mine] = (
      await server.request<ChannelAccountList>('GET', '/api/channels/accounts', { token: owner.token })
    ).body.accounts;
    expect(mine).toBeDefined();
    const bot = telegram.addBot({ username: 'toko_dua_bot' });
    expect((await kit.connect(owner.token, bot.token)).body.message).toBe('Duplicate channel');
    expect((await kit.connect(other.token, bot.token)).status).toBe(201);
    const again = await kit.connect(other.token, bot.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Account already exists');
    const third = await kit.signedIn();
    const taken = await kit.connect(third.token, bot.token);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Token already used by another client');
    expect((await kit.connect(agentToken, telegram.addBot().token)).status).toBe(403);
  });

  it('answers 502 and keeps nothing when Telegram refuses the webhook', async () => {
    const fresh = await kit.signedIn();
    const bot = telegram.addBot();
    telegram.failNext(bot.token, 'setWebhook', { code: 500, description: 'Internal Server Error' });
    const response = await kit.connect(fresh.token, bot.token);
    expect(response.status).toBe(502);
    expect(response.body.message).toBe('Connection failed');
    const list = await server.request<ChannelAccountList>('GET', '/api/channels/accounts', {
      token: fresh.token,
    });
    expect(list.body.accounts).toEqual([]);
    expect((await kit.connect(fresh.token, bot.token)).status).toBe(201);
  });
});

describe('a connected bot', () => {
  let bot: { token: string };
  let client: { clientId: string; token: string };
  let accountId: string;

  beforeAll(async () => {
    client = await kit.signedIn();
    bot = telegram.addBot({ username: 'toko_tiga_bot' });
    accountId = (await kit.connect(client.token, bot.token)).body.id;
  });

  it("stores a customer's message before answering Telegram, once however often it comes", async () => {
    const delivered = await telegram.customerWrites(bot.token, {
      chatId: 5101,
      firstName: 'Rina',
      lastName: 'Wati',
      username: 'rinawati',
      text: 'Halo, kak. Stok kopi gayo masih ada?',
    });
    expect(delivered.status).toBe(200);
    const stored = await kit.messagesOf(client.clientId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ customer: 'Rina Wati', text: 'Halo, kak. Stok kopi gayo masih ada?' });
    expect(stored[0].message.providerMessageId).toBe(`5101:${delivered.update.message?.message_id}`);

    // Telegram delivers at least once: the same update again is answered 200 and kept once.
    const webhook = telegram.webhookOf(bot.token);
    const repeat = await kit.postUpdate(webhook?.url ?? '', delivered.update, webhook?.secretToken);
    expect(repeat.status).toBe(200);
    expect(await kit.messagesOf(client.clientId)).toHaveLength(1);
    // A text never goes through the journal.
    expect(await kit.journalOf(client.clientId)).toEqual([]);
  });

  it('refuses an update without the secret, and one for no bot', async () => {
    const webhook = telegram.webhookOf(bot.token);
    const update = {
      update_id: 1,
      message: { message_id: 1, chat: { id: 1, type: 'private' }, date: 1, text: 'x' },
    };
    const post = (url: string, secret?: string) => kit.postUpdate(url, update, secret);
    expect((await post(webhook?.url ?? '')).status).toBe(401);
    expect((await post(webhook?.url ?? '', 'wrong-secret')).status).toBe(401);
    expect((await post(`${server.url}/api/webhooks/telegram/${crypto.randomUUID()}`, 'x')).status).toBe(404);
    expect((await kit.messagesOf(client.clientId)).map((row) => row.text)).not.toContain('x');
  });

  it("keeps a customer's photo with its caption, fetched after the answer", async () => {
    const bytes = jpegOf(64, 48);
    const delivered = await telegram.customerWrites(bot.token, {
      chatId: 5102,
      firstName: 'Dodi',
      photo: { bytes, caption: 'Ini bukti transfernya' },
    });
    expect(delivered.status).toBe(200);
    await server.inboundJournal.settled();
    expect(await kit.journalOf(client.clientId)).toEqual([]);
    const row = (await kit.messagesOf(client.clientId)).find((each) => each.customer === 'Dodi');
    expect(row?.text).toBe('Ini bukti transfernya');
    expect(row?.message.attachments).toHaveLength(1);
    expect(row?.message.attachments[0]).toMatchObject({ mime: 'image/jpeg', size: bytes.length });
  });

  it("sends an agent's reply with sendMessage, and a refusal marks it FAILED with Telegram's words", async () => {
    const [first] = await kit.messagesOf(client.clientId);
    const reply = (text: string) =>
      server.request<MessageView>('POST', '/api/csp/chat/secure', {
        token: client.token,
        body: { ticketId: first.ticketId, clientMessageId: crypto.randomUUID(), text },
      });
    const sent = await reply('Masih ada kak, silakan diorder.');
    expect(sent.status).toBe(201);
    const delivered = await eventually(async () => {
      const view = await server.request<MessageView>('GET', `/api/csp/chat/id?id=${sent.body.id}`, {
        token: client.token,
      });
      return view.body.status === 'SENT' ? view.body : undefined;
    });
    const out = telegram.sent(bot.token).at(-1);
    expect(out).toMatchObject({ chatId: 5101, text: 'Masih ada kak, silakan diorder.' });
    expect(delivered).toMatchObject({ status: 'SENT' });

    // Flood control: Telegram's retry_after is waited out, past the job's own 2 s backoff.
    telegram.failNext(bot.token, 'sendMessage', {
      code: 429,
      description: 'Too Many Requests: retry after 5',
      retryAfter: 5,
    });
    const started = Date.now();
    const later = await reply('Sebentar ya kak.');
    await eventually(async () => {
      const view = await server.request<MessageView>('GET', `/api/csp/chat/id?id=${later.body.id}`, {
        token: client.token,
      });
      return view.body.status === 'SENT';
    }, 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(telegram.sent(bot.token).at(-1)).toMatchObject({ chatId: 5101, text: 'Sebentar ya kak.' });

    telegram.block(bot.token, 5101);
    const refused = await reply('Halo?');
    const failed = await eventually(async () => {
      const view = await server.request<MessageView & { failureReason?: string }>(
        'GET',
        `/api/csp/chat/id?id=${refused.body.id}`,
        { token: client.token },
      );
      return view.body.status === 'FAILED' ? view.body : undefined;
    });
    expect(JSON.stringify(failed)).toContain('Forbidden: bot was blocked by the user');
    telegram.unblock(bot.token, 5101);
  });

  it('is disconnected: the webhook is deleted and its updates are no longer taken', async () => {
    expect(
      (await server.request('DELETE', `/api/channels/accounts/${accountId}`, { token: other.token })).status,
    ).toBe(404);
    const removed = await server.request('DELETE', `/api/channels/accounts/${accountId}`, {
      token: client.token,
    });
    expect(removed.status).toBe(204);
    expect(telegram.webhookOf(bot.token)).toBeNull();
    const update = {
      update_id: 9,
      message: { message_id: 9, chat: { id: 9, type: 'private' }, date: 1, text: 'y' },
    };
    const late = await kit.postUpdate(`${server.url}/api/webhooks/telegram/${accountId}`, update, 'any');
    expect(late.status).toBe(404);
  });
});
