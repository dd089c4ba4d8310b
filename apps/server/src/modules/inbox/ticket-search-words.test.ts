import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { type InboxTestKit, ownerScopeOf, startInboxTestKit } from './conversation.fixtures';
import type { InboxScope } from './inbox.policy';
import { isKnownCommonKeyword } from './ticket-keyword';
import { findTicketPage, type TicketFilter } from './ticket-query.repository';
import { listDefaults } from './ticket-query.service';

let kit: InboxTestKit;
let scope: InboxScope;

beforeAll(async () => {
  kit = await startInboxTestKit();
  scope = ownerScopeOf(kit);
});
afterAll(async () => {
  await kit?.server.close();
});

async function wordsOf(ticketId: number): Promise<string> {
  const [row] = await kit.server.database.query<{ words: string }>(
    `select string_agg(words::text, ' ' order by part) as words from ticket_search where ticket_id = $1`,
    [ticketId],
  );
  return row?.words ?? '';
}

/** Ticket ids of one page for the keyword, with the given cap on the id list (and density test, page size). */
async function page(
  filter: TicketFilter,
  keywordIdCap: number,
  options: { denseFrom?: number; limit?: number } = {},
): Promise<number[]> {
  const rows = await withTenant(kit.server.database.db, kit.clientId, (tx) =>
    findTicketPage(tx, {
      scope,
      filter,
      defaultStatuses: listDefaults.table,
      sort: 'createdAt',
      after: null,
      limit: options.limit ?? 50,
      keywordIdCap,
      keywordDenseFrom: options.denseFrom ?? Number.POSITIVE_INFINITY,
    }),
  );
  return rows.map((row) => row.ticket.id);
}

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

  it('begins a new part when the last is full, and an edit rebuilds only the part that held it', async () => {
    // One message of 300 distinct words fills part 0 past its 256 words.
    const long = Array.from({ length: 300 }, (_, i) => `kata${i}`).join(' ');
    const first = await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: long });
    const ticketId = first.ticket.id;
    await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: 'perunggu datang zubesok' });
    await kit.inbound(kit.whatsapp, { externalId: 'parts-1', text: 'perunggu sudah datang' });
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
      expect(await page({ keyword: 'kata7' }, cap)).toEqual([ticketId]);
      expect(await page({ keyword: 'perunggu' }, cap)).toEqual([ticketId]);
      expect(await page({ keyword: 'zubesok perunggu' }, cap)).toEqual([ticketId]);
    }
    // Editing the second message takes its word out of part 1 only; part 0 is not rebuilt.
    await kit.server.database.query(
      `update messages set text = 'perunggu zudiambil' where ticket_id = $1 and text = 'perunggu datang zubesok'`,
      [ticketId],
    );
    expect(await wordsOf(ticketId)).not.toContain("'zubesok'");
    expect(await wordsOf(ticketId)).toContain("'zudiambil'");
    expect(await wordsOf(ticketId)).toContain("'kata299'");
    expect(await page({ keyword: 'zubesok' }, 5000)).toEqual([]);
    expect(await page({ keyword: 'zudiambil' }, 1)).toEqual([ticketId]);
  });

  it('finds the same page whether a keyword is rare (ids) or common (walk)', async () => {
    const made: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const result = await kit.inbound(kit.telegram, { text: `tanya soal tembaga nomor ${i}` });
      made.push(result.ticket.id);
    }
    const other = await kit.inbound(kit.telegram, { text: 'tembaga "asli" atau bukan' });
    const expected = [other.ticket.id, ...made.reverse()];
    expect(await page({ keyword: 'tembaga' }, 5000)).toEqual(expected);
    // A cap of 2 makes the keyword common: the walk must give the same page.
    expect(await page({ keyword: 'tembaga' }, 2)).toEqual(expected);
    // Words of one ticket across its messages, and a phrase confirmed on one message.
    expect(await page({ keyword: 'tembaga nomor' }, 2)).toEqual(made);
    expect(await page({ keyword: '"soal tembaga"' }, 2)).toEqual(made);
    expect(await page({ keyword: '"soal tembaga"' }, 5000)).toEqual(made);
    expect(await page({ keyword: 'tembaga -nomor' }, 2)).toEqual([other.ticket.id]);
    expect(await page({ keyword: 'tembaga -nomor' }, 5000)).toEqual([other.ticket.id]);
  });

  it('remembers a keyword found common and walks for it, still finding tickets made since', async () => {
    const first = await kit.inbound(kit.telegram, { text: 'harga perak hari ini' });
    const second = await kit.inbound(kit.telegram, { text: 'perak batangan ada?' });
    expect(isKnownCommonKeyword(kit.clientId, 'perak', 1)).toBe(false);
    expect(await page({ keyword: 'perak' }, 1)).toEqual([second.ticket.id, first.ticket.id]);
    expect(isKnownCommonKeyword(kit.clientId, 'perak', 1)).toBe(true);
    // Rare under a larger cap: that verdict is not remembered (its ids change as messages come).
    expect(await page({ keyword: 'perak' }, 5000)).toEqual([second.ticket.id, first.ticket.id]);
    expect(isKnownCommonKeyword(kit.clientId, 'perak', 5000)).toBe(false);
    const third = await kit.inbound(kit.telegram, { text: 'jual perak murni' });
    expect(await page({ keyword: 'perak' }, 1)).toEqual([third.ticket.id, second.ticket.id, first.ticket.id]);
    // Another client's verdict is its own.
    expect(isKnownCommonKeyword('00000000-0000-0000-0000-000000000000', 'perak', 1)).toBe(false);
  });

  it('walks for a keyword whose matches fill a page among the newest tickets, not for one spread thin', async () => {
    const made: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      made.push((await kit.inbound(kit.telegram, { text: `cincin zamrud nomor ${i}` })).ticket.id);
    }
    const newestFirst = [...made].reverse();
    // Under the cap, but tried for density from 3 matches: the newest tickets hold a page (3).
    expect(await page({ keyword: 'zamrud' }, 100, { denseFrom: 3, limit: 3 })).toEqual(
      newestFirst.slice(0, 3),
    );
    expect(isKnownCommonKeyword(kit.clientId, 'zamrud', 100)).toBe(true);
    // The walk it now takes gives the page the ids gave.
    expect(await page({ keyword: 'zamrud' }, 100)).toEqual(newestFirst);
    expect(await page({ keyword: '"cincin zamrud"' }, 100, { denseFrom: 3, limit: 50 })).toEqual(newestFirst);

    // Two matches, a page of three: not dense. Remembered so, the ids still find what comes after.
    const first = await kit.inbound(kit.telegram, { text: 'batu kalsedon biru' });
    const second = await kit.inbound(kit.telegram, { text: 'kalsedon asli?' });
    expect(await page({ keyword: 'kalsedon' }, 101, { denseFrom: 2, limit: 3 })).toEqual([
      second.ticket.id,
      first.ticket.id,
    ]);
    expect(isKnownCommonKeyword(kit.clientId, 'kalsedon', 101)).toBe(false);
    const third = await kit.inbound(kit.telegram, { text: 'harga kalsedon' });
    expect(await page({ keyword: 'kalsedon' }, 101, { denseFrom: 2, limit: 3 })).toEqual([
      third.ticket.id,
      second.ticket.id,
      first.ticket.id,
    ]);
    expect(isKnownCommonKeyword(kit.clientId, 'kalsedon', 101)).toBe(false);
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
