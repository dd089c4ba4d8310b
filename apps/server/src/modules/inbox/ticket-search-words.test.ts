import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';
import { keywordPage } from './ticket-search-pages.fixtures';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

/** The ticket's words once every stored message's have reached its parts. */
async function wordsOf(ticketId: number): Promise<string> {
  await kit.server.searchWords.tick();
  const [row] = await kit.server.database.query<{ words: string }>(
    `select string_agg(words::text, ' ' order by part) as words from ticket_search where ticket_id = $1`,
    [ticketId],
  );
  return row?.words ?? '';
}

/** Ticket ids of one page for the keyword, with the given cap on the id list. */
const page = (keyword: string, keywordIdCap: number) => keywordPage(kit, { keyword }, keywordIdCap);

describe('ticket_search', () => {
  it('keeps the words of every message of a ticket, and drops a removed message’s', async () => {
    const first = await kit.inbound(kit.whatsapp, {
      externalId: 'words-1',
      text: 'Paket kuningan belum sampai',
    });
    await kit.inbound(kit.whatsapp, { externalId: 'words-1', text: 'nomor resi JNT99' });
    expect(await wordsOf(first.ticket.id)).toContain("'kuningan'");
    expect(await wordsOf(first.ticket.id)).toContain("'jnt99'");
    const [message] = await kit.server.database.query<{ id: number }>(
      `select id from messages where ticket_id = $1 and text like 'nomor resi%'`,
      [first.ticket.id],
    );
    await kit.server.database.query('delete from messages where id = $1', [message.id]);
    expect(await wordsOf(first.ticket.id)).not.toContain("'jnt99'");
    expect(await wordsOf(first.ticket.id)).toContain("'kuningan'");
  });

  it('lets a room go with its tickets, messages and their words (the cascade of a deleted room or contact)', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: 'gone-1', text: 'Sepatu kulit ukuran 42' });
    await kit.inbound(kit.whatsapp, { externalId: 'gone-1', text: 'warna coklat tua' });
    await kit.inbound(kit.whatsapp, { externalId: 'gone-1', text: 'kirim ke Bandung' });
    expect(await wordsOf(first.ticket.id)).toContain("'coklat'");
    // Before migration 0025 the trigger rewrote the parts of a ticket the same statement had
    // deleted, and the second rewrite failed the parts' foreign key.
    await kit.server.database.query('delete from chat_rooms where id = $1', [first.roomId]);
    const left = await kit.server.database.query<{ tickets: number; messages: number; parts: number }>(
      `select (select count(*)::int from tickets where id = $1) as tickets,
              (select count(*)::int from messages where ticket_id = $1) as messages,
              (select count(*)::int from ticket_search where ticket_id = $1) as parts`,
      [first.ticket.id],
    );
    expect(left).toEqual([{ tickets: 0, messages: 0, parts: 0 }]);
  });

  it('begins a new part when the last is full, and an edit rebuilds only the part that held it', async () => {
    // One message of 300 distinct words fills part 0 past its 256 words.
    const long = Array.from({ length: 300 }, (_, i) => `kata${i}`).join(' ');
    const first = await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: long });
    const ticketId = first.ticket.id;
    await kit.server.searchWords.tick();
    await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: 'perunggu datang zubesok' });
    await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: 'perunggu sudah datang' });
    // The two messages wait together and go into part 1 in one rewrite.
    await kit.server.searchWords.tick();
    const parts = await kit.server.database.query<{
      part: number;
      size: number;
      first: number;
      last: number;
    }>(
      `select part, length(words) as size, first_message_id::int as first, last_message_id::int as last
         from ticket_search where ticket_id = $1 order by part`,
      [ticketId],
    );
    expect(parts.map((row) => [row.part, row.size])).toEqual([
      [0, 300],
      [1, 4],
    ]);
    expect(parts[1].last).toBeGreaterThan(parts[1].first);
    // Words of either part find the ticket, whether the keyword is rare or common.
    for (const cap of [5000, 1]) {
      expect(await page('kata7', cap)).toEqual([ticketId]);
      expect(await page('perunggu', cap)).toEqual([ticketId]);
      expect(await page('zubesok perunggu', cap)).toEqual([ticketId]);
    }
    // Editing the second message takes its word out of part 1 only; part 0 is not rebuilt.
    await kit.server.database.query(
      `update messages set text = 'perunggu zudiambil' where ticket_id = $1 and text = 'perunggu datang zubesok'`,
      [ticketId],
    );
    expect(await wordsOf(ticketId)).not.toContain("'zubesok'");
    expect(await wordsOf(ticketId)).toContain("'zudiambil'");
    expect(await wordsOf(ticketId)).toContain("'kata299'");
    expect(await page('zubesok', 5000)).toEqual([]);
    expect(await page('zudiambil', 1)).toEqual([ticketId]);
  });

  it('keeps a long conversation’s last part small: a full tail folds into the part before it when both fit', async () => {
    const words = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(' ');
    const sizes = async (ticketId: number) => {
      await kit.server.searchWords.tick();
      return (
        await kit.server.database.query<{ part: number; size: number; first: number; last: number }>(
          `select part, length(words) as size, first_message_id::int as first, last_message_id::int as last
             from ticket_search where ticket_id = $1 order by part`,
          [ticketId],
        )
      ).map((row) => ({ ...row }));
    };
    const first = await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: words('lipat', 100) });
    const ticketId = first.ticket.id;
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([[0, 100]]);
    // Part 0 holds 64 words or more: the next message begins a tail of its own.
    await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: words('ekor', 70) });
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 100],
      [1, 70],
    ]);
    // That tail is full too: the next message begins another, and the full one folds into
    // part 0 (170 words fit 256), which now covers both ranges.
    await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: 'zulipatan datang' });
    const folded = await sizes(ticketId);
    expect(folded.map((row) => [row.part, row.size])).toEqual([
      [0, 170],
      [2, 2],
    ]);
    expect(folded[1].first).toBeGreaterThan(folded[0].last);
    // Small messages go into the tail while it has room.
    await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: 'masih muat' });
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 170],
      [2, 4],
    ]);
    // A full tail that would not fit beside the part before it stays a part of its own.
    await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: words('penuh', 100) });
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 170],
      [2, 104],
    ]);
    await kit.inbound(kit.whatsapp, { externalId: 'tails-1', text: 'zuakhir' });
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 170],
      [2, 104],
      [3, 1],
    ]);
    for (const cap of [5000, 1]) {
      for (const keyword of ['lipat7', 'ekor69', 'zulipatan', 'penuh99', 'zuakhir'])
        expect(await page(keyword, cap)).toEqual([ticketId]);
    }
    // An edit of a message that was in the folded tail rebuilds part 0 from its whole range.
    await kit.server.database.query(
      `update messages set text = 'zuganti' where ticket_id = $1 and text like 'ekor0 %'`,
      [ticketId],
    );
    const edited = await sizes(ticketId);
    expect(edited.map((row) => [row.part, row.size])).toEqual([
      [0, 101],
      [2, 104],
      [3, 1],
    ]);
    expect(await page('ekor69', 5000)).toEqual([]);
    expect(await page('zuganti', 5000)).toEqual([ticketId]);
    // The tail the conversation left folds once it has been quiet long enough, not before.
    await kit.server.searchWords.foldQuietTails(60_000);
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 101],
      [2, 104],
      [3, 1],
    ]);
    expect(await kit.server.searchWords.foldQuietTails(0)).toBeGreaterThanOrEqual(1);
    expect((await sizes(ticketId)).map((row) => [row.part, row.size])).toEqual([
      [0, 101],
      [2, 105],
    ]);
    expect(await page('zuakhir penuh0', 5000)).toEqual([ticketId]);
  });
});

// Two connections at once: PostgreSQL only (PGlite serves one connection).
describe.skipIf(!process.env.DATABASE_URL)('ticket_search under concurrent writers (PostgreSQL)', () => {
  it('an agent holding the ticket and a customer message arriving in it do not deadlock', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: 'lock-1', text: 'pesan pertama' });
    const ticketId = first.ticket.id;
    // The agent's side, as the send path does it: the ticket locked, then a message stored.
    const agent = new pg.Client({ connectionString: kit.server.config.DATABASE_URL });
    await agent.connect();
    try {
      await agent.query('begin');
      await agent.query('select 1 from tickets where id = $1 for update', [ticketId]);
      const customer = kit.inbound(kit.whatsapp, { externalId: 'lock-1', text: 'zupelanggan menulis' }).then(
        (result) => ({ result, error: null }),
        (error: Error) => ({ result: null, error }),
      );
      // Let the customer's transaction get as far as it can while the agent holds the ticket.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await agent.query(
        `insert into messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type, sender_name, sender_ref, text, status)
         select client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type, sender_name, sender_ref, 'zuagen menjawab', status
           from messages where ticket_id = $1 order by id limit 1`,
        [ticketId],
      );
      await agent.query('commit');
      const stored = await customer;
      expect(stored.error).toBeNull();
      expect(stored.result?.ticket.id).toBe(ticketId);
    } finally {
      await agent.end();
    }
    expect(await wordsOf(ticketId)).toContain("'zuagen'");
    expect(await wordsOf(ticketId)).toContain("'zupelanggan'");
  });
});
