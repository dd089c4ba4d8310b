import type { ChannelAccountList, ChannelAccountView, MessageView } from '@app/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, tickets } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { eventually } from '../inbox/conversation.fixtures';
import { jpegOf } from '../media/media.test-support';
import { TelegramSimulator } from './adapters/tlg/telegram.simulator';
import { fileTriesBeforeNote } from './adapters/tlg/telegram-webhook.routes';

let server: TestServer;
let telegram: TelegramSimulator;
let owner: { clientId: string; token: string };
let other: { clientId: string; token: string };
let agentToken: string;

async function signedIn(role: 'OWN' | 'USC' = 'OWN') {
  const user = await createClientWithUser(server.database.db, { role });
  return { clientId: user.clientId, token: (await server.login(user.email)).accessToken };
}

beforeAll(async () => {
  telegram = await TelegramSimulator.start();
  server = await startTestServer({ env: { TELEGRAM_API_BASE: telegram.url, SEED_DEMO: 'false' } });
  owner = await signedIn();
  other = await signedIn();
  agentToken = (await signedIn('USC')).token;
});
afterAll(async () => {
  await server?.close();
  await telegram?.stop();
});

const connect = (token: string, botToken: string) =>
  server.request<ChannelAccountView & { message?: string }>('POST', '/api/channels/telegram', {
    token,
    body: { token: botToken },
  });

/** The client's tickets with their messages, oldest first. */
async function messagesOf(clientId: string) {
  return server.database.db
    .select({ ticketId: tickets.id, customer: tickets.customerName, text: messages.text, message: messages })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(and(eq(messages.clientId, clientId), eq(messages.direction, 'INBOUND')))
    .orderBy(asc(messages.id));
}

/** The client's journal entries (as the owner role, so row-level security does not hide them). */
async function journalOf(clientId: string) {
  return server.database.query<{ id: string; attempts: number; last_error: string | null }>(
    'select id, attempts, last_error from inbound_journal where client_id = $1 order by id',
    [clientId],
  );
}

describe('connecting a Telegram bot', () => {
  it('checks the token with Telegram, then sets the webhook with a secret', async () => {
    const bot = telegram.addBot({ username: 'toko_satu_bot', firstName: 'Toko Satu' });
    const response = await connect(owner.token, bot.token);
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
    const malformed = await connect(owner.token, 'not-a-token');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('Invalid token');
    const unknown = await connect(owner.token, '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Invalid token');

    const [mine] = (
      await server.request<ChannelAccountList>('GET', '/api/channels/accounts', { token: owner.token })
    ).body.accounts;
    expect(mine).toBeDefined();
    const bot = telegram.addBot({ username: 'toko_dua_bot' });
    expect((await connect(owner.token, bot.token)).body.message).toBe('Duplicate channel');
    expect((await connect(other.token, bot.token)).status).toBe(201);
    const again = await connect(other.token, bot.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Account already exists');
    const third = await signedIn();
    const taken = await connect(third.token, bot.token);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Token already used by another client');
    expect((await connect(agentToken, telegram.addBot().token)).status).toBe(403);
  });

  it('answers 502 and keeps nothing when Telegram refuses the webhook', async () => {
    const fresh = await signedIn();
    const bot = telegram.addBot();
    telegram.failNext(bot.token, 'setWebhook', { code: 500, description: 'Internal Server Error' });
    const response = await connect(fresh.token, bot.token);
    expect(response.status).toBe(502);
    expect(response.body.message).toBe('Connection failed');
    const list = await server.request<ChannelAccountList>('GET', '/api/channels/accounts', {
      token: fresh.token,
    });
    expect(list.body.accounts).toEqual([]);
    expect((await connect(fresh.token, bot.token)).status).toBe(201);
  });
});

describe('a connected bot', () => {
  let bot: { token: string };
  let client: { clientId: string; token: string };
  let accountId: string;

  beforeAll(async () => {
    client = await signedIn();
    bot = telegram.addBot({ username: 'toko_tiga_bot' });
    accountId = (await connect(client.token, bot.token)).body.id;
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
    const stored = await messagesOf(client.clientId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ customer: 'Rina Wati', text: 'Halo, kak. Stok kopi gayo masih ada?' });
    expect(stored[0].message.providerMessageId).toBe(`5101:${delivered.update.message?.message_id}`);

    // Telegram delivers at least once: the same update again is answered 200 and kept once.
    const webhook = telegram.webhookOf(bot.token);
    const repeat = await fetch(webhook?.url ?? '', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': webhook?.secretToken ?? '',
      },
      body: JSON.stringify(delivered.update),
    });
    expect(repeat.status).toBe(200);
    expect(await messagesOf(client.clientId)).toHaveLength(1);
    // A text never goes through the journal.
    expect(await journalOf(client.clientId)).toEqual([]);
  });

  it('refuses an update without the secret, and one for no bot', async () => {
    const webhook = telegram.webhookOf(bot.token);
    const update = {
      update_id: 1,
      message: { message_id: 1, chat: { id: 1, type: 'private' }, date: 1, text: 'x' },
    };
    const post = (url: string, secret?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        body: JSON.stringify(update),
      });
    expect((await post(webhook?.url ?? '')).status).toBe(401);
    expect((await post(webhook?.url ?? '', 'wrong-secret')).status).toBe(401);
    expect((await post(`${server.url}/api/webhooks/telegram/${crypto.randomUUID()}`, 'x')).status).toBe(404);
    expect((await messagesOf(client.clientId)).map((row) => row.text)).not.toContain('x');
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
    expect(await journalOf(client.clientId)).toEqual([]);
    const row = (await messagesOf(client.clientId)).find((each) => each.customer === 'Dodi');
    expect(row?.text).toBe('Ini bukti transfernya');
    expect(row?.message.attachments).toHaveLength(1);
    expect(row?.message.attachments[0]).toMatchObject({ mime: 'image/jpeg', size: bytes.length });
  });

  it("sends an agent's reply with sendMessage, and a refusal marks it FAILED with Telegram's words", async () => {
    const [first] = await messagesOf(client.clientId);
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
    const late = await fetch(`${server.url}/api/webhooks/telegram/${accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'any' },
      body: JSON.stringify(update),
    });
    expect(late.status).toBe(404);
  });
});

describe('the inbound journal', () => {
  let bot: { token: string };
  let client: { clientId: string; token: string };
  let accountId: string;

  beforeAll(async () => {
    client = await signedIn();
    bot = telegram.addBot({ username: 'toko_jurnal_bot' });
    accountId = (await connect(client.token, bot.token)).body.id;
  });

  /** Makes the client's waiting entries due now, as if their backoff or lease had passed. */
  const dueNow = () =>
    server.database.query(
      "update inbound_journal set retry_at = now() - interval '1 second' where client_id = $1",
      [client.clientId],
    );

  it('keeps a photo Telegram cannot give yet, and stores it when a later try can fetch it', async () => {
    telegram.failNext(bot.token, 'getFile', { code: 502, description: 'Bad Gateway' });
    const bytes = jpegOf(32, 32);
    const delivered = await telegram.customerWrites(bot.token, {
      chatId: 6101,
      firstName: 'Sari',
      photo: { bytes, caption: 'Foto resinya kak' },
    });
    // Answered at once: the update is kept, and Telegram does not send it again.
    expect(delivered.status).toBe(200);
    await server.inboundJournal.settled();
    const [waiting, ...more] = await journalOf(client.clientId);
    expect(more).toEqual([]);
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting.last_error).toContain('File not fetched yet');
    expect(await messagesOf(client.clientId)).toEqual([]);

    // Another client sees none of it.
    const seen = await withTenant(server.database.db, other.clientId, (tx) =>
      tx.execute(sql`select count(*)::int as n from inbound_journal`),
    );
    expect((seen as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);

    // Not due yet, a sweep passes it over; due, it is stored with its photo and forgotten.
    await server.inboundJournal.sweepNow();
    expect(await journalOf(client.clientId)).toHaveLength(1);
    await dueNow();
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    const [row] = await messagesOf(client.clientId);
    expect(row).toMatchObject({ customer: 'Sari', text: 'Foto resinya kak' });
    expect(row.message.attachments[0]).toMatchObject({ mime: 'image/jpeg', size: bytes.length });
    expect(await journalOf(client.clientId)).toEqual([]);
  });

  it('stores what a stopped process kept, in order, once its lease has passed', async () => {
    const kept = (messageId: number, text: string) => ({
      message_id: messageId,
      from: { id: 6202, first_name: 'Budi' },
      chat: { id: 6202, type: 'private', first_name: 'Budi' },
      date: Math.floor(Date.now() / 1000),
      text,
    });
    await server.database.query(
      `insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at)
       select $1, $2, 'TLG', payload, now() + interval '1 minute'
         from unnest($3::jsonb[]) with ordinality as item(payload, ord) order by ord`,
      [
        client.clientId,
        accountId,
        [JSON.stringify(kept(1, 'Pesanan saya belum sampai')), JSON.stringify(kept(2, 'Nomor resi JNE123'))],
      ],
    );
    // Still within the lease of the process that kept them: left alone.
    await server.inboundJournal.sweepNow();
    expect(await messagesOf(client.clientId)).toHaveLength(1);
    await dueNow();
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    const budi = (await messagesOf(client.clientId)).filter((row) => row.customer === 'Budi');
    expect(budi.map((row) => row.text)).toEqual(['Pesanan saya belum sampai', 'Nomor resi JNE123']);
    expect(await journalOf(client.clientId)).toEqual([]);

    // Taken again (a delete that did not happen), an entry is a repeat and kept once.
    await server.database.query(
      `insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at)
       values ($1, $2, 'TLG', $3::jsonb, now() - interval '1 second')`,
      [client.clientId, accountId, JSON.stringify(kept(2, 'Nomor resi JNE123'))],
    );
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    expect((await messagesOf(client.clientId)).filter((row) => row.customer === 'Budi')).toHaveLength(2);
    expect(await journalOf(client.clientId)).toEqual([]);
  });

  it('stores the message with a note in place of a file Telegram kept not giving', async () => {
    telegram.failNext(bot.token, 'getFile', { code: 502, description: 'Bad Gateway' });
    await server.database.query(
      `insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at, attempts)
       values ($1, $2, 'TLG', $3::jsonb, now() - interval '1 second', $4)`,
      [
        client.clientId,
        accountId,
        JSON.stringify({
          message_id: 3,
          from: { id: 6404, first_name: 'Tono' },
          chat: { id: 6404, type: 'private', first_name: 'Tono' },
          date: Math.floor(Date.now() / 1000),
          caption: 'Ini fotonya',
          photo: [{ file_id: 'AgACAgIAAxkBAAIBlost', file_unique_id: 'lost', file_size: 1000 }],
        }),
        fileTriesBeforeNote,
      ],
    );
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    const [tono] = (await messagesOf(client.clientId)).filter((row) => row.customer === 'Tono');
    expect(tono.text).toMatch(
      /^Ini fotonya\n\[.+: file not fetched from Telegram \(Telegram 502: Bad Gateway\)\]$/,
    );
    expect(tono.message.attachments).toEqual([]);
    expect(await journalOf(client.clientId)).toEqual([]);
  });

  it('lets go of an entry whose bot is gone', async () => {
    const before = server.inboundJournal.stats.letGo;
    await server.database.query(
      `insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at)
       values ($1, $2, 'TLG', $3::jsonb, now() - interval '1 second')`,
      [
        client.clientId,
        crypto.randomUUID(),
        JSON.stringify({ message_id: 1, chat: { id: 6303, type: 'private' }, date: 1, text: 'z' }),
      ],
    );
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    expect(server.inboundJournal.stats.letGo).toBe(before + 1);
    expect(await journalOf(client.clientId)).toEqual([]);
    expect((await messagesOf(client.clientId)).map((row) => row.text)).not.toContain('z');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a web process and a worker (PostgreSQL)', () => {
  let web: TestServer;
  let client: { clientId: string; token: string };

  beforeAll(async () => {
    // The web process shares the test server's database and secret; the test server is the worker.
    web = await startTestServer({
      role: 'web',
      databaseUrl: server.config.DATABASE_URL,
      env: { TELEGRAM_API_BASE: telegram.url, SEED_DEMO: 'false', JWT_SECRET: server.config.jwtSecret },
    });
    client = await signedIn();
  });
  afterAll(async () => {
    await web?.close();
  });

  it('the web process keeps a photo and answers, and a worker woken by its notice fetches and stores it', async () => {
    const bot = telegram.addBot({ username: 'toko_web_bot' });
    const connected = await connect(client.token, bot.token);
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    const accountId = connected.body.id;
    const webhook = telegram.webhookOf(bot.token);
    // Telegram is told (as the product told it, with the same secret) to deliver to the web process.
    const moved = await fetch(`${telegram.url}/bot${bot.token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `${web.url}/api/webhooks/telegram/${accountId}`,
        secret_token: webhook?.secretToken,
      }),
    });
    expect(moved.status).toBe(200);
    const answered = await telegram.customerWrites(bot.token, {
      chatId: 7101,
      firstName: 'Wulan',
      photo: { bytes: jpegOf(16, 16), caption: 'Kak, bisa kirim hari ini?' },
    });
    expect(answered.status).toBe(200);
    // The web process stored nothing itself; the worker (no sweep timer in tests) was woken.
    expect(web.inboundJournal.stats).toMatchObject({ kept: 1, stored: 0 });
    const stored = await eventually(async () => {
      const rows = await messagesOf(client.clientId);
      return rows.length > 0 ? rows : undefined;
    });
    expect(stored.map((row) => row.text)).toEqual(['Kak, bisa kirim hari ini?']);
    expect(stored[0].message.attachments).toHaveLength(1);
    await server.inboundJournal.settled();
    expect(server.inboundJournal.stats.stored).toBeGreaterThan(0);
    expect(await journalOf(client.clientId)).toEqual([]);
  });
});
