import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { type InboxTestKit, searchedTicketIds, startInboxTestKit } from './conversation.fixtures';
import { findTicketExportDetails } from './ticket-export.repository';
import { findMessageHits } from './ticket-search.repository';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

async function reply(ticketId: number, text: string, kind = 'PublicMessage'): Promise<void> {
  const response = await kit.server.request('POST', '/api/csp/chat/secure', {
    token: kit.tokens.owner,
    body: { ticketId, clientMessageId: `floor-${Math.random().toString(36).slice(2)}`, text, kind },
  });
  expect(response.status).toBe(201);
}

async function resolve(ticketId: number): Promise<void> {
  const response = await kit.server.request('PUT', '/api/csp/chatRoom/status', {
    token: kit.tokens.owner,
    body: { ticketId, status: 'RESOLVED', remarks: 'Selesai' },
  });
  expect(response.status).toBe(200);
}

/** Messages of any ticket of the database that lie outside their ticket's range of its room. */
async function messagesOutsideTheirTicket(): Promise<number> {
  const [row] = await kit.server.database.query<{ count: number }>(
    `select count(*)::int as count
       from messages m join tickets t on t.id = m.ticket_id
      where m.room_id <> t.room_id or m.id <= t.message_floor
         or m.id > coalesce((select n.message_floor from tickets n
                              where n.room_id = t.room_id and n.id > t.id order by n.id limit 1),
                            9223372036854775807)`,
  );
  return row.count;
}

describe("a ticket's messages, read over its room's index between its floor and the next ticket's", () => {
  it("keeps each of a room's tickets to its own messages: snippets, phrases, the download's figures and an edit", async () => {
    const externalId = '6281111009901';
    const first = await kit.inbound(kit.telegram, { externalId, text: 'Kak, bakiak kuskus ukuran 40 ada?' });
    await reply(first.ticket.id, 'Ada kak, bakiak kuskus tinggal dua');
    await reply(first.ticket.id, 'Catatan: pelanggan minta difoto dulu', 'InternalMessage');
    await kit.inbound(kit.telegram, { externalId, text: 'Oke kak saya ambil yang kuskus' });
    await resolve(first.ticket.id);
    const second = await kit.inbound(kit.telegram, {
      externalId,
      text: 'Kak, sandal cendrawasih masih ada?',
    });
    expect(second.roomId).toBe(first.roomId);
    expect(second.ticket.id).not.toBe(first.ticket.id);
    await reply(second.ticket.id, 'Sandal cendrawasih habis kak, kuskus masih ada');
    await kit.inbound(kit.telegram, { externalId, text: 'Yang kuskus saja' });

    // Each floor as the product made it: below the ticket's messages, above every earlier one's.
    const messages = await kit.server.database.query<{ id: string; ticket_id: string; text: string }>(
      'select id::text, ticket_id::text, text from messages where room_id = $1 order by id',
      [first.roomId],
    );
    const floors = await kit.server.database.query<{ id: string; message_floor: string }>(
      'select id::text, message_floor::text from tickets where room_id = $1 order by id',
      [first.roomId],
    );
    expect(floors.map((row) => Number(row.id))).toEqual([first.ticket.id, second.ticket.id]);
    const idsOf = (ticketId: number) =>
      messages.filter((row) => Number(row.ticket_id) === ticketId).map((row) => Number(row.id));
    expect(idsOf(first.ticket.id)).toHaveLength(4);
    expect(idsOf(second.ticket.id)).toHaveLength(3);
    expect(Number(floors[0].message_floor)).toBeLessThan(Math.min(...idsOf(first.ticket.id)));
    expect(Number(floors[1].message_floor)).toBeGreaterThanOrEqual(Math.max(...idsOf(first.ticket.id)));
    expect(Number(floors[1].message_floor)).toBeLessThan(Math.min(...idsOf(second.ticket.id)));
    // The demo workspace's seed too, which writes its tickets before their messages.
    expect(await messagesOutsideTheirTicket()).toBe(0);

    // A word in both tickets: each snippet is its own ticket's newest message with it.
    const hits = (keyword: string) =>
      withTenant(kit.server.database.db, kit.clientId, (tx) =>
        findMessageHits(tx, kit.clientId, [first.ticket.id, second.ticket.id], keyword),
      );
    const kuskus = new Map((await hits('kuskus')).map((hit) => [hit.ticketId, hit.snippet]));
    expect(kuskus.get(first.ticket.id)).toBe('Oke kak saya ambil yang [[kuskus]]');
    expect(kuskus.get(second.ticket.id)).toBe('Yang [[kuskus]] saja');
    expect((await hits('cendrawasih')).map((hit) => hit.ticketId)).toEqual([second.ticket.id]);
    expect((await hits('bakiak')).map((hit) => hit.ticketId)).toEqual([first.ticket.id]);

    // A quoted phrase is confirmed on the ticket's own messages.
    expect(await searchedTicketIds(kit, '"bakiak kuskus"')).toEqual([first.ticket.id]);
    expect(await searchedTicketIds(kit, '"cendrawasih masih"')).toEqual([second.ticket.id]);
    expect(await searchedTicketIds(kit, '"kuskus saja"')).toEqual([second.ticket.id]);

    // The download's figures: every message of the ticket (its note too), its first customer message.
    const details = await withTenant(kit.server.database.db, kit.clientId, (tx) =>
      findTicketExportDetails(tx, kit.clientId, [first.ticket.id, second.ticket.id]),
    );
    const figures = new Map(details.map((row) => [row.ticketId, row]));
    expect(figures.get(first.ticket.id)).toMatchObject({
      messageCount: 4,
      firstCustomerMessage: 'Kak, bakiak kuskus ukuran 40 ada?',
    });
    expect(figures.get(second.ticket.id)).toMatchObject({
      messageCount: 3,
      firstCustomerMessage: 'Kak, sandal cendrawasih masih ada?',
    });

    // An edited message of the older ticket: its search part is made again from its range.
    const edited = messages.find((row) => row.text === 'Kak, bakiak kuskus ukuran 40 ada?')!;
    await kit.server.database.query(
      `update messages set text = 'Kak, tampah kuskus ukuran 40 ada?' where id = $1`,
      [edited.id],
    );
    expect(await searchedTicketIds(kit, 'tampah')).toEqual([first.ticket.id]);
    expect(await searchedTicketIds(kit, '"bakiak kuskus"')).toEqual([first.ticket.id]);
    await kit.server.database.query(`update messages set text = 'Siap kak' where text = $1`, [
      'Ada kak, bakiak kuskus tinggal dua',
    ]);
    expect(await searchedTicketIds(kit, 'bakiak')).toEqual([]);
    expect(await messagesOutsideTheirTicket()).toBe(0);
  });
});
