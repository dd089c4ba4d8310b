import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, tickets } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { readTogether } from '../../db/tenant-connections';
import type { AttachmentStore } from './attachment-store';
import { type InboxTestKit, ownerScopeOf, startInboxTestKit } from './conversation.fixtures';
import type { InboxScope } from './inbox.policy';
import { messageJsonOf } from './json-views';
import { roomPageOf, roomPageQuery } from './message.repository';
import { messageViews } from './message-view';
import { presentTicket } from './ticket.presenter';
import { findTicketPage, findTicketPageJson } from './ticket-query.repository';
import { listDefaults } from './ticket-query.service';

/**
 * The pages PostgreSQL writes as JSON must say exactly what the presenters say of the same
 * rows: awkward texts, nulls, quotes, attachments, expiry and timestamps with microseconds.
 */
let kit: InboxTestKit;
let scope: InboxScope;
const store: AttachmentStore = {
  resolve: async () => [],
  linkOf: (clientId, attachment) => `/media/${clientId}/${attachment.id}?signed`,
};

const awkwardTexts = [
  'Halo kak, "stok" ada? \\ 100% ya',
  'baris satu\nbaris dua\ttab\r\n',
  `kontrol ${String.fromCharCode(1)}${String.fromCharCode(31)} dan </script> & <b>`,
  'Terima kasih 🙏🏽 — ok ✓ 日本',
];

beforeAll(async () => {
  kit = await startInboxTestKit();
  scope = ownerScopeOf(kit);
});
afterAll(async () => {
  await kit?.server.close();
});

describe('pages written as JSON by PostgreSQL', () => {
  it('give each message exactly as presentMessage does', async () => {
    const externalId = `json-views-${Date.now()}`;
    const first = await kit.inbound(kit.whatsapp, { externalId, text: awkwardTexts[0] });
    for (const text of awkwardTexts.slice(1)) await kit.inbound(kit.whatsapp, { externalId, text });
    const { database } = kit.server;
    const roomId = first.ticket.roomId;
    const ids = (
      await database.query<{ id: number }>('select id from messages where room_id = $1 order by id', [roomId])
    ).map((row) => Number(row.id));
    // A quote, attachments (one with a provider's own link), no sender id, and a time whose
    // microseconds must be cut the way JavaScript's Date cuts them.
    await database.query(
      `update messages set quoted_message_id = $2, sender_id = null, failure_reason = 'Gagal "kirim"',
              created_at = '2026-03-04 05:06:07.123999+07'
        where id = $1`,
      [ids[1], ids[0]],
    );
    await database.query(
      `update messages set attachments = $2::jsonb, client_message_id = 'abc-123' where id = $1`,
      [
        ids[2],
        JSON.stringify([
          { id: 'file-1', name: 'foto "1".jpg', mime: 'image/jpeg', size: 2048 },
          { id: 'file-2', name: 'nota.pdf', mime: 'application/pdf', size: 10, url: 'https://cdn.test/x' },
        ]),
      ],
    );

    const page = { limit: 50 };
    const [fromJson, fromRows] = await withTenant(database.db, kit.clientId, async (tx) => {
      const [raw] = await readTogether(tx, [roomPageQuery(kit.clientId, { roomId }, page)]);
      const json = roomPageOf(raw, page).rows.map((row) =>
        JSON.parse(messageJsonOf(row, (attachment) => store.linkOf(kit.clientId, attachment))),
      );
      const rows = await tx
        .select()
        .from(messages)
        .where(eq(messages.roomId, roomId))
        .orderBy(asc(messages.id));
      return [json, await messageViews(tx, store, kit.clientId, rows)];
    });
    expect(fromRows).toHaveLength(awkwardTexts.length);
    expect(fromJson).toEqual(fromRows);
    expect(fromRows[1].quoted?.text).toBe(awkwardTexts[0]);
    expect(fromRows[1].createdAt).toBe('2026-03-03T22:06:07.123Z');
    expect(fromRows[2].attachments.map((attachment) => attachment.type)).toEqual(['image', 'document']);
  });

  it('give each ticket exactly as presentTicket does, page by page', async () => {
    const { database } = kit.server;
    const made = [];
    for (const name of ['Budi "Toko" Santoso', 'Siti \\ Aminah', 'Ñandú 🙂']) {
      made.push(await kit.inbound(kit.whatsapp, { customer: { externalId: `jv-${name}`, name } }));
    }
    const [expired, closed, tagged] = made.map((result) => result.ticket.id);
    // The stored text says "expired":false and the read sets it; the same words in a value
    // (written \"expired\":false in JSON) stay as they are.
    await database.query(
      `update tickets set expires_at = now() - interval '1 minute', remarks = $2 where id = $1`,
      [expired, 'pelanggan menulis "expired":false'],
    );
    await database.query(
      `update tickets set status = 'RESOLVED', closed_at = '2026-01-02 03:04:05.999999+00', remarks = 'selesai "ok"',
              expires_at = now() - interval '1 minute', closed_by = assignee_id where id = $1`,
      [closed],
    );
    await database.query(
      `update tickets set tags = array['vip', 'retur "cepat"'], priority = 1, subject = 'INV/2026/00001',
              expires_at = now() + interval '1 day' where id = $1`,
      [tagged],
    );

    const request = {
      scope,
      filter: {},
      defaultStatuses: listDefaults.table,
      sort: 'createdAt' as const,
      after: null,
      limit: 3,
      withCounters: true,
    };
    const [json, rows] = await withTenant(database.db, kit.clientId, async (tx) => [
      await findTicketPageJson(tx, request),
      await findTicketPage(tx, request),
    ]);
    expect(json.map((row) => row.id)).toEqual([tagged, closed, expired]);
    expect(json.map((row) => JSON.parse(row.view))).toEqual(rows.map((row) => presentTicket(row.ticket)));
    expect(json.map((row) => [row.sortKey, row.counters])).toEqual(
      rows.map((row) => [row.sortKey, row.counters]),
    );
    const views = json.map(
      (row) =>
        JSON.parse(row.view) as { expired: boolean; remarks: string | null; customer: { name: string } },
    );
    expect(views.map((view) => view.expired)).toEqual([false, false, true]);
    expect(views[2].remarks).toBe('pelanggan menulis "expired":false');
    expect(views[0].customer.name).toBe('Ñandú 🙂');

    // A later page by keyset, sorted by activity.
    const byActivity = { ...request, sort: 'lastMessageAt' as const, limit: 2 };
    const firstPage = await withTenant(database.db, kit.clientId, (tx) => findTicketPageJson(tx, byActivity));
    const after = { key: firstPage[1].sortKey, id: firstPage[1].id };
    const [laterJson, laterRows] = await withTenant(database.db, kit.clientId, async (tx) => [
      await findTicketPageJson(tx, { ...byActivity, after }),
      await findTicketPage(tx, { ...byActivity, after }),
    ]);
    expect(laterJson.map((row) => JSON.parse(row.view))).toEqual(
      laterRows.map((row) => presentTicket(row.ticket)),
    );
    await database.db.update(tickets).set({ tags: [] }).where(eq(tickets.id, tagged));
  });
});
