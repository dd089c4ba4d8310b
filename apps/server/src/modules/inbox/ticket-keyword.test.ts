import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';
import { knownKeywordVerdict } from './ticket-keyword';
import type { TicketFilter } from './ticket-query.repository';
import { keywordPage, keywordPageRows, type PageOptions } from './ticket-search-pages.fixtures';

/**
 * How a keyword's page is read (ticket-keyword.ts): as the ids of its matches, as a walk that
 * tests each ticket, or a day at a time, and the verdicts that choose between them. Every way
 * must give the same tickets.
 */

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

/** Ticket ids of one page for the keyword, with the given cap on the id list (and density test, page size). */
const page = (filter: TicketFilter, keywordIdCap: number, options: PageOptions = {}) =>
  keywordPage(kit, filter, keywordIdCap, options);

const pageRows = (
  filter: TicketFilter,
  keywordIdCap: number,
  options: PageOptions,
  after: { key: string; id: number } | null,
) => keywordPageRows(kit, filter, keywordIdCap, options, after);

/** Every page's ticket ids in turn, each page `limit` long, by keyset. */
async function everyPage(filter: TicketFilter, keywordIdCap: number, limit: number): Promise<number[][]> {
  const pages: number[][] = [];
  let after: { key: string; id: number } | null = null;
  for (;;) {
    const rows = await pageRows(filter, keywordIdCap, { limit }, after);
    if (rows.length === 0) return pages;
    pages.push(rows.map((row) => row.ticket.id));
    const last = rows[rows.length - 1];
    after = { key: last.sortKey, id: last.ticket.id };
  }
}

describe('a keyword’s pages', () => {
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

  it('remembers a keyword found past the cap, and still finds tickets made since', async () => {
    const first = await kit.inbound(kit.telegram, { text: 'harga perak hari ini' });
    const second = await kit.inbound(kit.telegram, { text: 'perak batangan ada?' });
    expect(knownKeywordVerdict(kit.clientId, 'perak', 1)).toBeUndefined();
    // Past a cap of 1, and two hits among the newest tickets are no page of 50: thin.
    expect(await page({ keyword: 'perak' }, 1)).toEqual([second.ticket.id, first.ticket.id]);
    expect(knownKeywordVerdict(kit.clientId, 'perak', 1)).toBe('thin');
    // Rare under a larger cap: that verdict is not remembered (its ids change as messages come).
    expect(await page({ keyword: 'perak' }, 5000)).toEqual([second.ticket.id, first.ticket.id]);
    expect(knownKeywordVerdict(kit.clientId, 'perak', 5000)).toBeUndefined();
    const third = await kit.inbound(kit.telegram, { text: 'jual perak murni' });
    expect(await page({ keyword: 'perak' }, 1)).toEqual([third.ticket.id, second.ticket.id, first.ticket.id]);
    // By latest activity a thin keyword past the cap is walked: the same tickets.
    expect(await page({ keyword: 'perak' }, 1, { sort: 'lastMessageAt' })).toEqual([
      third.ticket.id,
      second.ticket.id,
      first.ticket.id,
    ]);
    // Past the cap with a page of 2 among the newest tickets: common, and walked.
    expect(await page({ keyword: 'perak' }, 2, { limit: 2 })).toEqual([third.ticket.id, second.ticket.id]);
    expect(knownKeywordVerdict(kit.clientId, 'perak', 2)).toBe('common');
    // Another client's verdict is its own.
    expect(knownKeywordVerdict('00000000-0000-0000-0000-000000000000', 'perak', 1)).toBeUndefined();
  });

  it('reads a thin keyword a day at a time, giving the pages the ids give', async () => {
    // Tickets of the word "sawo" made on days further and further back, one found by its
    // customer's name only, and one holding "sawo" and "busuk".
    const daysAgo = [0, 0, 1, 35, 35, 70, 400, 401];
    const made: number[] = [];
    for (const [i, days] of daysAgo.entries()) {
      const text = i === 4 ? 'sawo busuk semua' : `mau pesan sawo ${i}`;
      const input =
        i === 6
          ? { text: 'kirim ke kebun', customer: { externalId: `sawo-${i}`, name: 'Kebun Sawo Manila' } }
          : { text };
      const { ticket } = await kit.inbound(kit.whatsapp, input);
      await kit.server.database.query(
        `update tickets set created_at = date_trunc('day', now()) - make_interval(days => $2) + make_interval(mins => $3)
          where id = $1`,
        [ticket.id, days, i],
      );
      made.push(ticket.id);
    }
    // Each ticket's new day reached its words (parts made since take it; 0024's trigger
    // carries it to parts made before).
    await kit.server.searchWords.tick();
    const [tagged] = await kit.server.database.query<{ days: number }>(
      `select count(distinct created_day)::int as days from ticket_search where ticket_id = any($1::bigint[])`,
      [made.filter((_, i) => i !== 6)],
    );
    expect(tagged.days).toBe(5);
    const [newestFirst] = await kit.server.database.query<{ ids: number[] }>(
      `select array_agg(id::int order by created_at desc, id desc) as ids from tickets where id = any($1::bigint[])`,
      [made],
    );
    const expected = newestFirst.ids;
    expect(await page({ keyword: 'sawo' }, 5000)).toEqual(expected);
    expect(await page({ keyword: 'sawo' }, 1)).toEqual(expected);
    expect(knownKeywordVerdict(kit.clientId, 'sawo', 1)).toBe('thin');
    // Pages of two by keyset: each short read by day is widened until the page is full.
    const byTwo = [expected.slice(0, 2), expected.slice(2, 4), expected.slice(4, 6), expected.slice(6, 8)];
    expect(await everyPage({ keyword: 'sawo' }, 5000, 2)).toEqual(byTwo);
    expect(await everyPage({ keyword: 'sawo' }, 1, 2)).toEqual(byTwo);
    // Other filters beside it, a creation range, a negation and a phrase read by day too.
    for (const filter of [
      { keyword: 'sawo', mediaPlatform: ['WAP' as const], status: ['UNASSIGNED' as const] },
      {
        keyword: 'sawo',
        createdFrom: new Date(Date.now() - 50 * 86_400_000).toISOString(),
        createdTo: new Date(Date.now() - 20 * 86_400_000).toISOString(),
      },
      { keyword: 'sawo -busuk' },
      { keyword: 'sawo busuk' },
      { keyword: '"pesan sawo"' },
    ]) {
      expect(await page(filter, 1)).toEqual(await page(filter, 5000));
    }
    expect(await page({ keyword: 'sawo busuk' }, 1)).toEqual([made[4]]);
    // A negation alone has no word to look up by day: walked, as before.
    expect(await page({ keyword: '-sawo' }, 1, { limit: 3 })).toEqual(
      await page({ keyword: '-sawo' }, 5000, { limit: 3 }),
    );
  });

  it('takes only the newest matches of a day that holds many, ties and later pages included (migration 0044)', async () => {
    // Fourteen tickets of "kedondong" on one day 30 days back, at these minutes of it, two
    // pairs made at the same instant; every third on Telegram, the rest on WhatsApp. Two
    // more three days earlier.
    const minutes = [100, 90, 80, 80, 70, 60, 60, 50, 40, 30, 20, 10, 5, 1];
    const made: number[] = [];
    for (const [i, minute] of [...minutes, 600, 500].entries()) {
      const account = i % 3 === 2 ? kit.telegram : kit.whatsapp;
      const { ticket } = await kit.inbound(account, {
        text: `kedondong muda ${i}`,
        customer: { externalId: `kedondong-${i}`, name: `Pembeli ${i}` },
      });
      await kit.server.database.query(
        `update tickets set created_at = date_trunc('day', now()) - make_interval(days => $2) + make_interval(mins => $3)
          where id = $1`,
        [ticket.id, i < minutes.length ? 30 : 33, minute],
      );
      made.push(ticket.id);
    }
    await kit.server.searchWords.tick();
    const [newestFirst] = await kit.server.database.query<{ ids: number[] }>(
      `select array_agg(id::int order by created_at desc, id desc) as ids from tickets where id = any($1::bigint[])`,
      [made],
    );
    const expected = newestFirst.ids;
    // The first page of 50 holds all sixteen, read by day: the keyword is found thin.
    expect(await page({ keyword: 'kedondong' }, 1)).toEqual(expected);
    expect(knownKeywordVerdict(kit.clientId, 'kedondong', 1)).toBe('thin');

    // A page of two needs three matches: the day's fourteen are far more, so only its newest
    // four come back (one more for a cursor's own ticket), with the tie at the fourth, and
    // read_from is that instant rather than the day's start. Unless the page's other filters
    // may drop matches (not exact): then the whole day, from its start.
    const dated = async (exact: boolean) => {
      const [row] = await withTenant(kit.server.database.db, kit.clientId, async (tx) => {
        const result = await tx.execute(
          sql`select ticket_ids, read_from from inbox_keyword_dated_ticket_ids(${kit.clientId}, 'kedondong', '%kedondong%', null, 1, null, null, 3, ${exact})`,
        );
        return (result as unknown as { rows: Array<{ ticket_ids: string[]; read_from: Date | string }> })
          .rows;
      });
      // Outside the tenant's transaction: PGlite serves one connection.
      const [cut] = await kit.server.database.query<{ minute: number }>(
        `select extract(epoch from $1::timestamptz - date_trunc('day', $1::timestamptz))::int / 60 as minute`,
        [row?.read_from],
      );
      return { ids: (row?.ticket_ids ?? []).map(Number).sort(), minute: cut.minute };
    };
    expect(await dated(true)).toEqual({ ids: expected.slice(0, 4).sort(), minute: 80 });
    expect(await dated(false)).toEqual({ ids: expected.slice(0, 14).sort(), minute: 0 });

    // Pages of two by keyset, through cuts inside the day, ties and the earlier day, as the
    // ids give them; and with a filter that drops every third, as the ids give it.
    const byTwo = Array.from({ length: 8 }, (_, i) => expected.slice(2 * i, 2 * i + 2));
    expect(await everyPage({ keyword: 'kedondong' }, 1, 2)).toEqual(byTwo);
    expect(await everyPage({ keyword: 'kedondong' }, 5000, 2)).toEqual(byTwo);
    for (const filter of [
      { keyword: 'kedondong', mediaPlatform: ['WAP' as const] },
      { keyword: 'kedondong', mediaPlatform: ['TLG' as const] },
    ]) {
      expect(await page(filter, 1, { limit: 2 })).toEqual(await page(filter, 5000, { limit: 2 }));
      expect(await page(filter, 1, { limit: 5 })).toEqual(await page(filter, 5000, { limit: 5 }));
    }
  });

  it('reads by day only the transaction’s own client', async () => {
    const other = '00000000-0000-0000-0000-000000000000';
    const rows = await withTenant(kit.server.database.db, kit.clientId, async (tx) => {
      const result = await tx.execute(
        sql`select * from inbox_keyword_dated_ticket_ids(${other}, 'sawo', '%sawo%', null, 10, null, null, 50, true)`,
      );
      return (result as unknown as { rows: unknown[] }).rows;
    });
    expect(rows).toEqual([]);
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
    expect(knownKeywordVerdict(kit.clientId, 'zamrud', 100)).toBe('common');
    // The walk it now takes gives the page the ids gave.
    expect(await page({ keyword: 'zamrud' }, 100)).toEqual(newestFirst);
    expect(await page({ keyword: '"cincin zamrud"' }, 100, { denseFrom: 3, limit: 50 })).toEqual(newestFirst);

    // Two matches, a page of three: thin. Remembered so, read by day it still finds what comes after.
    const first = await kit.inbound(kit.telegram, { text: 'batu kalsedon biru' });
    const second = await kit.inbound(kit.telegram, { text: 'kalsedon asli?' });
    expect(await page({ keyword: 'kalsedon' }, 101, { denseFrom: 2, limit: 3 })).toEqual([
      second.ticket.id,
      first.ticket.id,
    ]);
    expect(knownKeywordVerdict(kit.clientId, 'kalsedon', 101)).toBe('thin');
    const third = await kit.inbound(kit.telegram, { text: 'harga kalsedon' });
    expect(await page({ keyword: 'kalsedon' }, 101, { denseFrom: 2, limit: 3 })).toEqual([
      third.ticket.id,
      second.ticket.id,
      first.ticket.id,
    ]);
    // By latest activity, under the cap, its ids give the page.
    expect(
      await page({ keyword: 'kalsedon' }, 101, { denseFrom: 2, limit: 3, sort: 'lastMessageAt' }),
    ).toEqual([third.ticket.id, second.ticket.id, first.ticket.id]);
    expect(knownKeywordVerdict(kit.clientId, 'kalsedon', 101)).toBe('thin');
  });
});
