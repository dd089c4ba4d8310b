import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '../../platform/events/outbox';
import { eventually, type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

interface EventRow {
  id: string;
  topic: string;
  rooms: string[];
  // biome-ignore lint/suspicious/noExplicitAny: event payloads are read loosely in assertions
  payload: Record<string, any>;
}

/** The newest outbox id, to read the events a step wrote after it. */
async function cursor(): Promise<string> {
  const [row] = await kit.server.database.query<{ id: string }>(
    'select coalesce(max(id), 0)::text as id from outbox_events',
  );
  return row.id;
}
async function eventsAfter(id: string): Promise<EventRow[]> {
  return kit.server.database.query<EventRow>(
    'select id::text, topic, rooms, payload from outbox_events where id > $1 order by id',
    [id],
  );
}
async function count(sql: string, values: unknown[]): Promise<number> {
  const [row] = await kit.server.database.query<{ count: number }>(sql, values);
  return Number(row.count);
}

describe('receiveInbound', () => {
  it('creates the contact, identity, room and an unassigned ticket, and announces them', async () => {
    // A counter shard of no connection (they use 0-15): the counts announced sum every shard.
    await kit.server.database.query(
      `insert into ticket_counters (client_id, scope, shard, count) values ($1, 'all', 100, 7)`,
      [kit.clientId],
    );
    const before = await cursor();
    const sentAt = new Date(Date.now() - 60_000);
    const result = await kit.inbound(kit.whatsapp, {
      externalId: '6281111000001',
      customer: { externalId: '6281111000001', name: 'Siti Aminah', phone: '+6281111000001' },
      providerMessageId: 'wamid.first-1',
      text: 'Kak, kemeja flanel merah ukuran L masih ada?',
      sentAt,
    });

    expect(result.duplicate).toBe(false);
    expect(result.ticket).toMatchObject({
      status: 'UNASSIGNED',
      priority: 3,
      mediaPlatform: 'WAP',
      unreadCount: 1,
      assigneeId: null,
      lastMessagePreview: 'Kak, kemeja flanel merah ukuran L masih ada?',
      customer: { name: 'Siti Aminah', phone: '+6281111000001' },
      expired: false,
    });
    // WhatsApp chats expire 24 hours after the customer's last message.
    expect(new Date(result.ticket.expiresAt!).getTime()).toBe(sentAt.getTime() + 24 * 3600_000);
    expect(result.message).toMatchObject({
      kind: 'PublicMessage',
      direction: 'INBOUND',
      status: 'DELIVERED',
      sender: { type: 'CUSTOMER', name: 'Siti Aminah' },
      createdAt: sentAt.toISOString(),
    });
    expect(await count('select count(*) from contacts where phone = $1', ['+6281111000001'])).toBe(1);
    const [room] = await kit.server.database.query<{ current_ticket_id: number }>(
      'select current_ticket_id from chat_rooms where id = $1',
      [result.roomId],
    );
    expect(Number(room.current_ticket_id)).toBe(result.ticket.id);

    const events = await eventsAfter(before);
    expect(events.map((event) => event.topic)).toEqual([
      'inbox.ticket_created',
      'inbox.counts_changed',
      'inbox.message_created',
    ]);
    const created = events[2];
    expect(created.rooms).toEqual(
      expect.arrayContaining([
        rooms.ticket(result.ticket.id),
        rooms.inbox(kit.clientId),
        rooms.queue(kit.clientId),
        rooms.visitor(result.contactIdentityId),
      ]),
    );
    expect(created.payload.message.id).toBe(result.message.id);
    const [counters] = await kit.server.database.query<{ all: number; unassigned: number }>(
      `select sum(count) filter (where scope = 'all')::int as all, sum(count) filter (where scope = 'unassigned')::int as unassigned
       from ticket_counters where client_id = $1`,
      [kit.clientId],
    );
    expect(events[1].payload).toMatchObject({ all: counters.all, unassigned: counters.unassigned });
    await kit.server.database.query(`delete from ticket_counters where client_id = $1 and shard = 100`, [
      kit.clientId,
    ]);
  });

  it('adds a second message to the open ticket and moves its expiry', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: '6281111000002', text: 'Halo' });
    const later = new Date(Date.now() + 1000);
    const second = await kit.inbound(kit.whatsapp, {
      externalId: '6281111000002',
      text: 'Ada yang bisa bantu?',
      sentAt: later,
    });
    expect(second.ticket.id).toBe(first.ticket.id);
    expect(second.roomId).toBe(first.roomId);
    expect(second.ticket.unreadCount).toBe(2);
    expect(second.ticket.lastMessagePreview).toBe('Ada yang bisa bantu?');
    expect(new Date(second.ticket.expiresAt!).getTime()).toBe(later.getTime() + 24 * 3600_000);
  });

  it('keeps chats on channels without expiry open forever, and stores HTML as plain text', async () => {
    const text = '<script>alert("x")</script><b>tebal</b>';
    const result = await kit.inbound(kit.telegram, { text });
    expect(result.ticket.expiresAt).toBeNull();
    expect(result.message.text).toBe(text);
  });

  it('answers a repeated provider id with the first message and changes nothing', async () => {
    const first = await kit.inbound(kit.whatsapp, {
      externalId: '6281111000003',
      providerMessageId: 'wamid.repeat-1',
      text: 'Satu',
    });
    const before = await cursor();
    const again = await kit.inbound(kit.whatsapp, {
      externalId: '6281111000003',
      providerMessageId: 'wamid.repeat-1',
      text: 'Satu (lagi)',
    });
    expect(again.duplicate).toBe(true);
    expect(again.message.id).toBe(first.message.id);
    expect(again.message.text).toBe('Satu');
    expect(again.ticket.unreadCount).toBe(1);
    expect(await eventsAfter(before)).toEqual([]);
  });

  it('stores one message when the same provider id arrives five times at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        kit.inbound(kit.whatsapp, {
          externalId: '6281111000004',
          providerMessageId: 'wamid.burst-1',
          text: 'Serentak',
        }),
      ),
    );
    expect(new Set(results.map((result) => result.message.id)).size).toBe(1);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(
      await count('select count(*) from messages where provider_message_id = $1', ['wamid.burst-1']),
    ).toBe(1);
    const [ticket] = await kit.server.database.query<{ unread_count: number }>(
      'select unread_count from tickets where id = $1',
      [results[0].ticket.id],
    );
    expect(ticket.unread_count).toBe(1);
  });

  it('opens one contact, room and ticket for two first messages of one customer at once', async () => {
    const [one, two] = await Promise.all([
      kit.inbound(kit.whatsapp, { externalId: '6281111000005', providerMessageId: 'wamid.a', text: 'A' }),
      kit.inbound(kit.whatsapp, { externalId: '6281111000005', providerMessageId: 'wamid.b', text: 'B' }),
    ]);
    expect(one.ticket.id).toBe(two.ticket.id);
    expect(one.roomId).toBe(two.roomId);
    expect(one.contactIdentityId).toBe(two.contactIdentityId);
    expect(
      await count('select count(*) from contact_identities where external_id = $1', ['6281111000005']),
    ).toBe(1);
    expect(await count('select count(*) from tickets where room_id = $1', [one.roomId])).toBe(1);
    expect(await count('select count(*) from messages where room_id = $1', [one.roomId])).toBe(2);
  });

  it("dedupes a sender's client message id, also when it arrives twice at once", async () => {
    const input = { externalId: 'visitor-77', clientMessageId: 'c0ffee00-1111', text: 'Dari widget' };
    const [one, two] = await Promise.all([
      kit.inbound(kit.telegram, input),
      kit.inbound(kit.telegram, input),
    ]);
    expect(one.message.id).toBe(two.message.id);
    expect([one.duplicate, two.duplicate].sort()).toEqual([false, true]);
    const third = await kit.inbound(kit.telegram, input);
    expect(third).toMatchObject({ duplicate: true, message: { id: one.message.id } });
  });

  it('answers one message when two customers bring the same provider id at once', async () => {
    const [one, two] = await Promise.all([
      kit.inbound(kit.whatsapp, {
        externalId: '6281111000011',
        providerMessageId: 'wamid.shared-1',
        text: 'X',
      }),
      kit.inbound(kit.whatsapp, {
        externalId: '6281111000012',
        providerMessageId: 'wamid.shared-1',
        text: 'Y',
      }),
    ]);
    expect(one.message.id).toBe(two.message.id);
    expect([one.duplicate, two.duplicate].sort()).toEqual([false, true]);
    expect(
      await count('select count(*) from messages where provider_message_id = $1', ['wamid.shared-1']),
    ).toBe(1);
  });

  it("fills a returning customer's blank phone, e-mail and notes and never overwrites them", async () => {
    const first = await kit.inbound(kit.telegram, {
      externalId: 'tg-blanks-1',
      customer: { externalId: 'tg-blanks-1', name: 'Budi', phone: '', email: 'budi@contoh.id' },
    });
    const contactOf = async () => {
      const [row] = await kit.server.database.query<{
        phone: string | null;
        email: string;
        notes: string | null;
      }>(
        'select c.phone, c.email, c.notes from contacts c join chat_rooms r on r.contact_id = c.id where r.id = $1',
        [first.roomId],
      );
      return row;
    };
    expect(await contactOf()).toEqual({ phone: '', email: 'budi@contoh.id', notes: null });
    const second = await kit.inbound(kit.telegram, {
      externalId: 'tg-blanks-1',
      customer: {
        externalId: 'tg-blanks-1',
        name: 'Budi Santoso',
        phone: '+628123',
        email: 'lain@contoh.id',
        notes: 'Kota: Bandung',
      },
    });
    expect(second.roomId).toBe(first.roomId);
    expect(await contactOf()).toEqual({ phone: '+628123', email: 'budi@contoh.id', notes: 'Kota: Bandung' });
    expect(second.message.sender.name).toBe('Budi');
  });

  it('opens a new ticket in the same room once the last one is closed', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: '6281111000006' });
    const closed = await kit.server.request('PUT', '/api/csp/chatRoom/status', {
      token: kit.tokens.owner,
      body: { ticketId: first.ticket.id, status: 'RESOLVED', remarks: 'Selesai' },
    });
    expect(closed.status).toBe(200);
    const next = await kit.inbound(kit.whatsapp, { externalId: '6281111000006', text: 'Saya lagi kak' });
    expect(next.roomId).toBe(first.roomId);
    expect(next.ticket.id).not.toBe(first.ticket.id);
    expect(next.ticket.status).toBe('UNASSIGNED');
  });

  it('refuses a channel account of another client', async () => {
    const { createClientWithUser } = await import('../../test/factories');
    const { createChannelAccount } = await import('../../test/inbox-factories');
    const other = await createClientWithUser(kit.server.database.db);
    const foreign = await createChannelAccount(kit.server.database.db, other.clientId, { channel: 'WAP' });
    await expect(kit.inbound(foreign)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('delivery', () => {
  /** An agent's reply through the API; answers the stored message. */
  async function reply(ticketId: number, text: string) {
    const response = await kit.server.request<{ id: number; status: string }>(
      'POST',
      '/api/csp/chat/secure',
      {
        token: kit.tokens.owner,
        body: { ticketId, clientMessageId: `m-${Date.now()}-${Math.random().toString(36).slice(2)}`, text },
      },
    );
    expect(response.status).toBe(201);
    return response.body;
  }
  const statusOf = async (id: number) => {
    const [row] = await kit.server.database.query<{ status: string; failure_reason: string | null }>(
      'select status, failure_reason from messages where id = $1',
      [id],
    );
    return row;
  };

  it('hands a public reply to the provider and marks it SENT with the provider id', async () => {
    kit.provider.whatsapp.answers = ['sent'];
    const { ticket } = await kit.inbound(kit.whatsapp);
    const message = await reply(ticket.id, 'Masih ada kak 😊');
    expect(message.status).toBe('PENDING');
    await eventually(async () => (await statusOf(message.id)).status === 'SENT');
    const delivery = kit.provider.whatsapp.deliveries.find((each) => each.messageId === message.id);
    expect(delivery).toMatchObject({ text: 'Masih ada kak 😊', ticketId: ticket.id });
    const [row] = await kit.server.database.query<{ provider_message_id: string }>(
      'select provider_message_id from messages where id = $1',
      [message.id],
    );
    expect(row.provider_message_id).toBe(`wamid.${message.id}`);
  });

  it('marks a refused message FAILED with the provider reason', async () => {
    kit.provider.whatsapp.answers = ['refuse'];
    const { ticket } = await kit.inbound(kit.whatsapp);
    const message = await reply(ticket.id, 'Halo?');
    const row = await eventually(async () => {
      const current = await statusOf(message.id);
      return current.status === 'FAILED' && current;
    });
    expect(row.failure_reason).toBe('Recipient is not a valid WhatsApp user (131026)');
    kit.provider.whatsapp.answers = ['sent'];
  });

  it('tries an unreachable provider again and then sends', async () => {
    kit.provider.telegram.answers = ['unreachable', 'sent'];
    const { ticket } = await kit.inbound(kit.telegram);
    const message = await reply(ticket.id, 'Coba lagi');
    await eventually(async () => (await statusOf(message.id)).status === 'SENT', 15_000);
    expect(kit.provider.telegram.deliveries.filter((each) => each.messageId === message.id)).toHaveLength(2);
  });

  it('fails at once when no adapter serves the channel', async () => {
    const { createChannelAccount } = await import('../../test/inbox-factories');
    const shopee = await createChannelAccount(kit.server.database.db, kit.clientId, { channel: 'SHP' });
    const { ticket } = await kit.inbound(shopee);
    const message = await reply(ticket.id, 'Halo dari Shopee');
    const row = await eventually(async () => {
      const current = await statusOf(message.id);
      return current.status === 'FAILED' && current;
    });
    expect(row.failure_reason).toBe('Channel is not connected');
  });

  it('moves receipts forward only, for outbound messages only', async () => {
    kit.provider.whatsapp.answers = ['sent'];
    const { ticket, roomId, message: inbound } = await kit.inbound(kit.whatsapp);
    const message = await reply(ticket.id, 'Sudah dikirim ya');
    await eventually(async () => (await statusOf(message.id)).status === 'SENT');
    const byProvider = { clientId: kit.clientId, channelAccountId: kit.whatsapp.id };

    expect(
      await kit.server.conversations.updateDeliveryStatus(
        { ...byProvider, providerMessageId: `wamid.${message.id}` },
        'READ',
      ),
    ).toBe(1);
    expect((await statusOf(message.id)).status).toBe('READ');
    expect(
      await kit.server.conversations.updateDeliveryStatus(
        { ...byProvider, providerMessageId: `wamid.${message.id}` },
        'DELIVERED',
      ),
    ).toBe(0);
    expect((await statusOf(message.id)).status).toBe('READ');

    await kit.server.conversations.updateDeliveryStatus(
      { clientId: kit.clientId, roomId, upToMessageId: message.id },
      'READ',
    );
    expect((await statusOf(inbound.id)).status).toBe('DELIVERED');
  });
});
