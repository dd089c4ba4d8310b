import type { ChatPageResponse, MessageView } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRowsOf } from '../../db/json-row';
import { readInTenant } from '../../db/tenant';
import { type InboxTestKit, outsiderTokens, startInboxTestKit } from './conversation.fixtures';
import { checkedNewestPageQuery, checkedPageOf, type KeyedRoomPage } from './room-page.repository';

// A room's newest page opened again is answered from the page the process holds, once
// PostgreSQL finds it unchanged (room-page-cache.ts): these hold it to what the database holds.

let kit: InboxTestKit;
let stranger: string;
let noPermission: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  ({ stranger, noPermission } = await outsiderTokens(kit));
});
afterAll(async () => {
  await kit?.server.close();
});

let keySequence = 0;
const send = (token: string, body: Record<string, unknown>) => {
  keySequence += 1;
  return kit.server.request<MessageView>('POST', '/api/csp/chat/secure', {
    token,
    body: { clientMessageId: `kept-${Date.now()}-${keySequence}`, ...body },
  });
};

describe('GET /api/csp/chat opened again (room-page-cache.ts)', () => {
  const open = (token: string, ticketId: number) =>
    kit.server.request<ChatPageResponse>('GET', `/api/csp/chat?ticketId=${ticketId}`, { token });

  it('answers what the database holds now, whoever changed it', async () => {
    const externalId = `again-${Date.now()}`;
    const start = Date.now() - 3600_000;
    const first = await kit.inbound(kit.telegram, { externalId, text: 'pesan 0', sentAt: new Date(start) });
    const ticketId = first.ticket.id;
    const note = await send(kit.tokens.supervisor, {
      ticketId,
      kind: 'InternalMessage',
      text: 'Cek stok dulu',
    });
    for (let index = 1; index <= 51; index += 1)
      await kit.inbound(kit.telegram, {
        externalId,
        text: `pesan ${index}`,
        sentAt: new Date(start + index),
      });
    const quoting = await send(kit.tokens.supervisor, {
      ticketId,
      kind: 'InternalMessage',
      text: 'Sesuai catatan ini',
      quotedMessageId: note.body.id,
    });
    const texts = (page: ChatPageResponse) => page.messages.map((message) => message.text);

    const opened = await open(kit.tokens.owner, ticketId);
    expect(opened.body.messages).toHaveLength(50);
    expect(opened.body.messages.at(-1)).toMatchObject({
      text: 'Sesuai catatan ini',
      quoted: { text: 'Cek stok dulu' },
    });
    expect((await open(kit.tokens.owner, ticketId)).body).toEqual(opened.body);

    // A new message in the room.
    await kit.inbound(kit.telegram, { externalId, text: 'pesan baru', sentAt: new Date(start + 100) });
    const withNew = await open(kit.tokens.owner, ticketId);
    expect(texts(withNew.body).at(-1)).toBe('pesan baru');
    expect(texts(withNew.body)[0]).toBe('pesan 4');

    // A message changed by another writer (another process, a receipt): its new status shows.
    const changed = withNew.body.messages[10];
    expect(changed.status).not.toBe('READ');
    await kit.server.database.db.execute(
      sql`update messages set status = 'READ' where client_id = ${kit.clientId} and id = ${changed.id}`,
    );
    const afterReceipt = await open(kit.tokens.owner, ticketId);
    expect(afterReceipt.body.messages[10]).toMatchObject({ id: changed.id, status: 'READ' });

    // The fingerprint the server takes of a page it reads whole is the one the database takes
    // when asked whether the page changed: else a page kept would never be answered again.
    // And a page held without its newest message has only that one written again.
    const fingerprints = await readInTenant(kit.server.database.db, kit.clientId, async (tx) => {
      const taken: string[] = [];
      for (const of of [{ ticketId }, { roomId: first.ticket.roomId }]) {
        const read = async (held: KeyedRoomPage | undefined) => {
          const raw = await rawRowsOf(tx, checkedNewestPageQuery(kit.clientId, of, 50, held));
          return { raw, page: checkedPageOf(raw, 50, held) };
        };
        const whole = (await read(undefined)).page;
        expect(whole.rows).toHaveLength(50);
        expect((await read(whole)).page).toEqual({ ...whole, unchanged: true });
        const older = { ...whole, fingerprint: 'older', rows: whole.rows.slice(0, -1) };
        const again = await read(older);
        const written = again.raw.filter((row) => row.view !== null).map((row) => Number(row.id));
        expect(written).toContain(whole.rows.at(-1)!.id);
        expect(written.filter((id) => older.rows.some((row) => row.id === id))).toEqual([]);
        expect(again.page).toEqual({ ...whole, unchanged: false });
        taken.push(whole.fingerprint);
      }
      return taken;
    });
    expect(fingerprints[1]).toBe(fingerprints[0]);

    // The quoted note is older than the page; taken back, the quote goes with it.
    expect(afterReceipt.body.messages.some((message) => message.id === note.body.id)).toBe(false);
    expect(
      (
        await kit.server.request('DELETE', `/api/csp/chat/secure?id=${note.body.id}`, {
          token: kit.tokens.supervisor,
        })
      ).status,
    ).toBe(204);
    const afterDelete = await open(kit.tokens.owner, ticketId);
    expect(afterDelete.body.messages.find((message) => message.id === quoting.body.id)?.quoted).toBeNull();

    // Opened by its room, the same page.
    const byRoom = await kit.server.request<ChatPageResponse>(
      'GET',
      `/api/csp/chat?roomId=${first.ticket.roomId}`,
      {
        token: kit.tokens.owner,
      },
    );
    expect(byRoom.body).toEqual(afterDelete.body);
  });

  it('checks who asks before answering from memory', async () => {
    const held = await kit.inbound(kit.telegram);
    await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: held.ticket.id, assigneeId: kit.userIds.agent1 },
    });
    expect((await open(kit.tokens.owner, held.ticket.id)).status).toBe(200);
    expect((await open(kit.tokens.agent1, held.ticket.id)).status).toBe(200);
    expect((await open(kit.tokens.agent2, held.ticket.id)).status).toBe(404);
    expect((await open(stranger, held.ticket.id)).status).toBe(404);
    expect((await open(noPermission, held.ticket.id)).status).toBe(403);
  });
});
