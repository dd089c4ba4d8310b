import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { createConversation } from '../../test/inbox-factories';
import { eventually, type InboxTestKit, searchedTicketIds, startInboxTestKit } from './conversation.fixtures';
import { SearchWordsKeeper } from './ticket-search-words.keeper';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

const query = <Row = Record<string, unknown>>(text: string, values?: unknown[]) =>
  kit.server.database.query<Row>(text, values);

async function waiting(ticketId: number): Promise<number> {
  const [row] = await query<{ n: number }>(
    'select count(*)::int as n from ticket_search_backlog where ticket_id = $1',
    [ticketId],
  );
  return row.n;
}

async function parts(ticketId: number) {
  return query<{ part: number; words: string; first: number; last: number }>(
    `select part, words::text as words, first_message_id::int as first, last_message_id::int as last
       from ticket_search where ticket_id = $1 order by part`,
    [ticketId],
  );
}

async function messageIds(ticketId: number): Promise<number[]> {
  const rows = await query<{ id: number }>(
    'select id::int as id from messages where ticket_id = $1 order by id',
    [ticketId],
  );
  return rows.map((row) => row.id);
}

const search = (keyword: string) => searchedTicketIds(kit, keyword);

describe('the search words backlog (migration 0030)', () => {
  it('notes a stored message, and the drainer adds a ticket’s waiting messages to its part in one rewrite', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: 'backlog-1', text: 'Kemeja batik ukuran L' });
    const ticketId = first.ticket.id;
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-1', text: 'warna zumarun ada?' });
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-1', text: 'kirim ke Surabaya' });
    expect(await waiting(ticketId)).toBe(3);
    expect(await parts(ticketId)).toEqual([]);

    await kit.server.searchWords.tick();
    expect(await waiting(ticketId)).toBe(0);
    const ids = await messageIds(ticketId);
    const [part] = await parts(ticketId);
    expect(part.part).toBe(0);
    expect(part.first).toBe(ids[0]);
    expect(part.last).toBe(ids[ids.length - 1]);
    for (const word of ['batik', 'zumarun', 'surabaya']) expect(part.words).toContain(`'${word}'`);

    // A later message joins the same part, its range widened.
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-1', text: 'zumarun tua saja' });
    await kit.server.searchWords.tick();
    const after = await parts(ticketId);
    expect(after).toHaveLength(1);
    expect(after[0].last).toBe((await messageIds(ticketId)).at(-1));
    expect(after[0].words).toContain("'tua'");
  });

  it('lets a keyword search find a message stored a moment ago: the search drains its client first', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { text: 'harga zubelimbing per kilo' });
    expect(await waiting(ticket.id)).toBe(1);
    expect(await search('zubelimbing')).toEqual([ticket.id]);
    expect(await waiting(ticket.id)).toBe(0);
  });

  it('drains only the tenant’s own client on a search, and the worker’s round is not the tenant’s to call', async () => {
    const other = await createClientWithUser(kit.server.database.db);
    const elsewhere = await createConversation(kit.server.database.db, {
      clientId: other.clientId,
      messages: [{ text: 'pesan zulain dari klien lain' }],
    });
    expect(await waiting(elsewhere.ticket.id)).toBe(1);
    // Asked for another client, the catch-up does nothing.
    await withTenant(kit.server.database.db, kit.clientId, (tx) =>
      tx.execute(sql`select ticket_search_catch_up(${other.clientId})`),
    );
    expect(await waiting(elsewhere.ticket.id)).toBe(1);
    const refused = await withTenant(kit.server.database.db, kit.clientId, (tx) =>
      tx.execute(sql`select ticket_search_drain(10)`),
    ).then(
      () => null,
      (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
    );
    expect(refused).toMatch(/permission denied/);
    // Nor can a tenant read another client's notes.
    const seen = await withTenant(kit.server.database.db, kit.clientId, (tx) =>
      tx.execute(
        sql`select count(*)::int as n from ticket_search_backlog where client_id = ${other.clientId}`,
      ),
    );
    expect((seen as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
    await kit.server.searchWords.tick();
    expect(await waiting(elsewhere.ticket.id)).toBe(0);
    expect((await parts(elsewhere.ticket.id))[0].words).toContain("'zulain'");
  });

  it('takes at most its limit in a round, over all clients, the one whose oldest message waits longest first', async () => {
    await kit.server.searchWords.tick();
    const first = await kit.inbound(kit.whatsapp, { externalId: 'backlog-round', text: 'satu zubundar' });
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-round', text: 'dua zubundar' });
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-round', text: 'tiga zubundar' });
    const other = await createClientWithUser(kit.server.database.db);
    const later = await createConversation(kit.server.database.db, {
      clientId: other.clientId,
      messages: [{ text: 'pesan zubelakang' }],
    });
    const round = async () =>
      (await query<{ taken: number }>('select ticket_search_drain(2) as taken'))[0].taken;
    expect(await round()).toBe(2);
    expect(await waiting(first.ticket.id)).toBe(1);
    expect(await waiting(later.ticket.id)).toBe(1);
    expect(await round()).toBe(2);
    expect(await waiting(first.ticket.id)).toBe(0);
    expect(await waiting(later.ticket.id)).toBe(0);
    expect((await parts(first.ticket.id))[0].words).toContain("'tiga'");
  });

  it('reads a waiting message’s text as it is when drained: an edit counts, a removed message leaves nothing', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: 'backlog-edit', text: 'pesan zuawal' });
    const ticketId = first.ticket.id;
    await kit.inbound(kit.whatsapp, { externalId: 'backlog-edit', text: 'pesan zuhapus' });
    const [edited, removed] = await messageIds(ticketId);
    await query(`update messages set text = 'pesan zubaru' where id = $1`, [edited]);
    await query('delete from messages where id = $1', [removed]);
    await kit.server.searchWords.tick();
    expect(await waiting(ticketId)).toBe(0);
    const [part] = await parts(ticketId);
    expect(part.words).toContain("'zubaru'");
    expect(part.words).not.toContain("'zuawal'");
    expect(part.words).not.toContain("'zuhapus'");
    // A message without words (an image) notes nothing; given words by an edit, it waits then.
    const [image] = await query<{ id: number }>(
      `insert into messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type, sender_name, sender_ref, text, status)
       select client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type, sender_name, sender_ref, '', status
         from messages where ticket_id = $1 order by id limit 1
       returning id::int as id`,
      [ticketId],
    );
    expect(await waiting(ticketId)).toBe(0);
    await query(`update messages set text = 'foto zugambar' where id = $1`, [image.id]);
    expect(await waiting(ticketId)).toBe(1);
    expect(await search('zugambar')).toEqual([ticketId]);
  });

  it('keeps its notes when their ticket goes, and the drainer drops them', async () => {
    const gone = await kit.inbound(kit.whatsapp, { text: 'pesan zuhilang sebentar' });
    await query('delete from chat_rooms where id = $1', [gone.roomId]);
    expect(await waiting(gone.ticket.id)).toBe(1);
    await kit.server.searchWords.tick();
    expect(await waiting(gone.ticket.id)).toBe(0);
    expect(await parts(gone.ticket.id)).toEqual([]);
  });

  it('drains on its own timer in a worker process', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { text: 'zuwaktu berjalan' });
    const keeper = new SearchWordsKeeper(kit.server.database, pino({ level: 'silent' }));
    keeper.start(20);
    try {
      await eventually(async () => (await waiting(ticket.id)) === 0);
      expect(keeper.stats.taken).toBeGreaterThanOrEqual(1);
    } finally {
      await keeper.stop();
    }
  });
});

// Two connections at once: PostgreSQL only (PGlite serves one connection).
describe.skipIf(!process.env.DATABASE_URL)(
  'the search words backlog beside other writers (PostgreSQL)',
  () => {
    it('passes over a ticket whose last part another transaction is rewriting, and takes it next round', async () => {
      const first = await kit.inbound(kit.whatsapp, { externalId: 'backlog-lock', text: 'pesan pertama' });
      const ticketId = first.ticket.id;
      const other = await kit.inbound(kit.whatsapp, { externalId: 'backlog-lock-2', text: 'pesan zulancar' });
      await kit.server.searchWords.tick();
      await kit.inbound(kit.whatsapp, { externalId: 'backlog-lock', text: 'pesan zutertahan' });
      await kit.inbound(kit.whatsapp, { externalId: 'backlog-lock-2', text: 'zulancar lagi' });
      const holder = new pg.Client({ connectionString: kit.server.config.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select 1 from ticket_search where ticket_id = $1 for update', [ticketId]);
        await kit.server.searchWords.tick();
        // Not waited for: the held ticket's note stays, the other ticket's went.
        expect(await waiting(ticketId)).toBe(1);
        expect(await waiting(other.ticket.id)).toBe(0);
        await holder.query('commit');
      } finally {
        await holder.end();
      }
      await kit.server.searchWords.tick();
      expect(await waiting(ticketId)).toBe(0);
      expect((await parts(ticketId))[0].words).toContain("'zutertahan'");
    });

    it('leaves a ticket that must begin a part while a message is being stored in it, and takes it next round', async () => {
      const { ticket } = await kit.inbound(kit.whatsapp, {
        externalId: 'backlog-row',
        text: 'pesan zubaris',
      });
      expect(await parts(ticket.id)).toEqual([]);
      const storing = new pg.Client({ connectionString: kit.server.config.DATABASE_URL });
      await storing.connect();
      try {
        // As a customer's message being stored holds it.
        await storing.query('begin');
        await storing.query('select 1 from tickets where id = $1 for update', [ticket.id]);
        await kit.server.searchWords.tick();
        expect(await waiting(ticket.id)).toBe(1);
        await storing.query('commit');
      } finally {
        await storing.end();
      }
      await kit.server.searchWords.tick();
      expect(await waiting(ticket.id)).toBe(0);
      expect((await parts(ticket.id))[0].words).toContain("'zubaris'");
    });

    it('a search waits for a drain of its client under way, then finds what it drained', async () => {
      const { ticket } = await kit.inbound(kit.telegram, { text: 'zutunggu sebentar' });
      const drainer = new pg.Client({ connectionString: kit.server.config.DATABASE_URL });
      await drainer.connect();
      try {
        await drainer.query('begin');
        await drainer.query('select ticket_search_drain_lock($1, true)', [kit.clientId]);
        const found = search('zutunggu');
        await new Promise((resolve) => setTimeout(resolve, 200));
        await drainer.query('select ticket_search_drain_client($1, 100)', [kit.clientId]);
        await drainer.query('commit');
        expect(await found).toEqual([ticket.id]);
      } finally {
        await drainer.end();
      }
    });
  },
);
