import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { startTestServer, type TestServer } from '../../test/test-server';
import { eventually } from '../inbox/conversation.fixtures';
import { jpegOf } from '../media/media.test-support';
import type { TelegramSimulator } from './adapters/tlg/telegram.simulator';
import { fileTriesBeforeNote } from './adapters/tlg/telegram-webhook.routes';
import { startTelegramKit, type TelegramKit } from './telegram-channel.test-support';

// The inbound journal (migration 0035) behind Telegram's webhook: a message with a file is
// kept and answered, and stored once its file is fetched.
let kit: TelegramKit;
let server: TestServer;
let telegram: TelegramSimulator;
let other: { clientId: string; token: string };

beforeAll(async () => {
  kit = await startTelegramKit();
  ({ server, telegram } = kit);
  other = await kit.signedIn();
});
afterAll(async () => {
  await kit?.close();
});

describe('the inbound journal', () => {
  let bot: { token: string };
  let client: { clientId: string; token: string };
  let accountId: string;

  beforeAll(async () => {
    client = await kit.signedIn();
    bot = telegram.addBot({ username: 'toko_jurnal_bot' });
    accountId = (await kit.connect(client.token, bot.token)).body.id;
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
    const [waiting, ...more] = await kit.journalOf(client.clientId);
    expect(more).toEqual([]);
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting.last_error).toContain('File not fetched yet');
    expect(await kit.messagesOf(client.clientId)).toEqual([]);

    // Another client sees none of it.
    const seen = await withTenant(server.database.db, other.clientId, (tx) =>
      tx.execute(sql`select count(*)::int as n from inbound_journal`),
    );
    expect((seen as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);

    // Not due yet, a sweep passes it over; due, it is stored with its photo and forgotten.
    await server.inboundJournal.sweepNow();
    expect(await kit.journalOf(client.clientId)).toHaveLength(1);
    await dueNow();
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    const [row] = await kit.messagesOf(client.clientId);
    expect(row).toMatchObject({ customer: 'Sari', text: 'Foto resinya kak' });
    expect(row.message.attachments[0]).toMatchObject({ mime: 'image/jpeg', size: bytes.length });
    expect(await kit.journalOf(client.clientId)).toEqual([]);
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
    expect(await kit.messagesOf(client.clientId)).toHaveLength(1);
    await dueNow();
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    const budi = (await kit.messagesOf(client.clientId)).filter((row) => row.customer === 'Budi');
    expect(budi.map((row) => row.text)).toEqual(['Pesanan saya belum sampai', 'Nomor resi JNE123']);
    expect(await kit.journalOf(client.clientId)).toEqual([]);

    // Taken again (a delete that did not happen), an entry is a repeat and kept once.
    await server.database.query(
      `insert into inbound_journal (client_id, channel_account_id, channel, payload, retry_at)
       values ($1, $2, 'TLG', $3::jsonb, now() - interval '1 second')`,
      [client.clientId, accountId, JSON.stringify(kept(2, 'Nomor resi JNE123'))],
    );
    await server.inboundJournal.sweepNow();
    await server.inboundJournal.settled();
    expect((await kit.messagesOf(client.clientId)).filter((row) => row.customer === 'Budi')).toHaveLength(2);
    expect(await kit.journalOf(client.clientId)).toEqual([]);
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
    const [tono] = (await kit.messagesOf(client.clientId)).filter((row) => row.customer === 'Tono');
    expect(tono.text).toMatch(
      /^Ini fotonya\n\[.+: file not fetched from Telegram \(Telegram 502: Bad Gateway\)\]$/,
    );
    expect(tono.message.attachments).toEqual([]);
    expect(await kit.journalOf(client.clientId)).toEqual([]);
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
    expect(await kit.journalOf(client.clientId)).toEqual([]);
    expect((await kit.messagesOf(client.clientId)).map((row) => row.text)).not.toContain('z');
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
    client = await kit.signedIn();
  });
  afterAll(async () => {
    await web?.close();
  });

  it('the web process keeps a photo and answers, and a worker woken by its notice fetches and stores it', async () => {
    const bot = telegram.addBot({ username: 'toko_web_bot' });
    const connected = await kit.connect(client.token, bot.token);
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
      const rows = await kit.messagesOf(client.clientId);
      return rows.length > 0 ? rows : undefined;
    });
    expect(stored.map((row) => row.text)).toEqual(['Kak, bisa kirim hari ini?']);
    expect(stored[0].message.attachments).toHaveLength(1);
    await server.inboundJournal.settled();
    expect(server.inboundJournal.stats.stored).toBeGreaterThan(0);
    expect(await kit.journalOf(client.clientId)).toEqual([]);
  });
});
