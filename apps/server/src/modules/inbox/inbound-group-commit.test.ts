import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';
import type { InboundResult } from './conversation.service';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

let run = 0;

/** Customers' messages submitted all at once, as a busy minute delivers them. */
function burst(customers: number, each: number, tag: string) {
  run += 1;
  const sent: Array<{ externalId: string; text: string; clientMessageId: string }> = [];
  for (let round = 0; round < each; round++)
    for (let customer = 0; customer < customers; customer++)
      sent.push({
        externalId: `gc-${tag}-${run}-${customer}`,
        text: `zugc${tag} pesan ${round} dari ${customer}`,
        clientMessageId: `gc-${tag}-${run}-${customer}-${round}`,
      });
  return sent;
}

/** One message of a burst, as the WhatsApp account received it. */
function send(message: { externalId: string; text: string; clientMessageId: string }) {
  return kit.inbound(kit.whatsapp, message);
}

async function storedOf(externalId: string) {
  return kit.server.database.query<{ id: string; text: string; ticket_id: string }>(
    `select m.id::text, m.text, m.ticket_id::text from messages m
       join contact_identities i on i.id::text = m.sender_id
      where i.external_id = $1 order by m.id`,
    [externalId],
  );
}

describe('inbound group commit', () => {
  it('stores messages that arrive together in shared transactions, each once, in order per customer, with its events', async () => {
    const queue = kit.server.conversations.inbound;
    const before = { ...queue.stats };
    const [{ count: eventsBefore }] = await kit.server.database.query<{ count: string }>(
      `select count(*)::text as count from outbox_events where topic = 'inbox.message_created'`,
    );
    const sent = burst(6, 5, 'a');
    // One message sent twice in the same burst: the repeat answers the first.
    const repeated = { ...sent[7] };
    const results = await Promise.all([...sent, repeated].map(send));
    expect(queue.stats.batches).toBeGreaterThan(before.batches);
    expect(queue.stats.batchedItems - before.batchedItems).toBeGreaterThan(10);
    expect(queue.stats.batchFailures).toBe(before.batchFailures);
    for (const [index, message] of sent.entries()) expect(results[index].message.text).toBe(message.text);
    expect(results.at(-1)?.duplicate).toBe(true);
    expect(results.at(-1)?.message.id).toBe(results[7].message.id);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(sent.length);

    for (let customer = 0; customer < 6; customer++) {
      const externalId = sent[customer].externalId;
      const rows = await storedOf(externalId);
      expect(rows.map((row) => row.text)).toEqual(
        sent.filter((message) => message.externalId === externalId).map((message) => message.text),
      );
      // One conversation: the first message opened the ticket, the rest joined it.
      expect(new Set(rows.map((row) => row.ticket_id)).size).toBe(1);
    }
    const [{ count: eventsAfter }] = await kit.server.database.query<{ count: string }>(
      `select count(*)::text as count from outbox_events where topic = 'inbox.message_created'`,
    );
    expect(Number(eventsAfter) - Number(eventsBefore)).toBe(sent.length);
    // The batch's tickets got their words like any message's.
    await kit.server.searchWords.tick();
    const [{ count: words }] = await kit.server.database.query<{ count: string }>(
      `select count(*)::text as count from ticket_search where words @@ to_tsquery('simple', 'zugca')`,
    );
    expect(Number(words)).toBe(6);
  });

  it("stores known customers' messages together and exactly as one message at a time stores them", async () => {
    const service = kit.server.conversations;
    // Two groups of customers, each with an open ticket.
    const together = burst(8, 1, 'set');
    const alone = burst(8, 1, 'one');
    for (const message of [...together, ...alone])
      await kit.inbound(kit.whatsapp, { externalId: message.externalId, text: message.text });
    const before = { ...service.inboundStats };
    const second = (message: { externalId: string; clientMessageId: string }, index: number) => ({
      externalId: message.externalId,
      text: `zugcset kedua ${index}`,
      clientMessageId: `${message.clientMessageId}-2`,
    });
    // The first group writes at once (all but the first wait and go together), the second one by one.
    const batched = await Promise.all(together.map((message, index) => send(second(message, index))));
    const single: InboundResult[] = [];
    for (const [index, message] of alone.entries()) single.push(await send(second(message, index)));
    expect(service.inboundStats.storedTogether - before.storedTogether).toBeGreaterThanOrEqual(5);

    // Everything but what differs between two customers (ids, names, times) must be equal.
    const shape = ({ message, ticket, duplicate }: InboundResult) => ({
      duplicate,
      message: {
        ...message,
        id: typeof message.id,
        roomId: typeof message.roomId,
        ticketId: typeof message.ticketId,
        sender: { ...message.sender, id: typeof message.sender.id, name: typeof message.sender.name },
        text: message.text.replace(/\d+$/, ''),
        clientMessageId: typeof message.clientMessageId,
        createdAt: typeof message.createdAt,
      },
      ticket: {
        ...ticket,
        id: typeof ticket.id,
        roomId: typeof ticket.roomId,
        customer: {
          ...ticket.customer,
          contactId: typeof ticket.customer.contactId,
          name: typeof ticket.customer.name,
        },
        createdAt: typeof ticket.createdAt,
        lastMessageAt: typeof ticket.lastMessageAt,
        lastMessagePreview: ticket.lastMessagePreview?.replace(/\d+$/, ''),
        expiresAt: typeof ticket.expiresAt,
      },
    });
    for (const [index, result] of batched.entries()) {
      expect(shape(result)).toEqual(shape(single[index]));
      // The ticket moved with its message: preview, activity, the 24-hour window, one more unread.
      expect(result.ticket.lastMessagePreview).toBe(`zugcset kedua ${index}`);
      expect(result.ticket.lastMessageAt).toBe(result.message.createdAt);
      expect(Date.parse(result.ticket.expiresAt!) - Date.parse(result.message.createdAt)).toBe(24 * 3600_000);
      expect(result.ticket.unreadCount).toBe(2);
      expect(result.message.ticketId).toBe(result.ticket.id);
      const rows = await storedOf(together[index].externalId);
      expect(rows.map((row) => row.text)).toEqual([together[index].text, `zugcset kedua ${index}`]);
      const [room] = await kit.server.database.query<{ current: string; last: Date }>(
        `select current_ticket_id::text as current, last_message_at as last from chat_rooms where id = $1`,
        [result.message.roomId],
      );
      expect(room.current).toBe(String(result.ticket.id));
      expect(room.last.toISOString()).toBe(result.message.createdAt);
    }
    // Words as for any message (both groups wrote them).
    await kit.server.searchWords.tick();
    const [{ count: words }] = await kit.server.database.query<{ count: string }>(
      `select count(*)::text as count from ticket_search where words @@ to_tsquery('simple', 'zugcset & kedua')`,
    );
    expect(Number(words)).toBe(16);
    // A repeat of a message stored together answers the first.
    const repeat = await send(second(together[3], 3));
    expect(repeat.duplicate).toBe(true);
    expect(repeat.message.id).toBe(batched[3].message.id);
  });

  it('when the set statement fails, the batch stores its messages one by one and refuses only the bad one', async () => {
    const customers = burst(4, 1, 'setfail');
    for (const message of customers)
      await kit.inbound(kit.whatsapp, { externalId: message.externalId, text: message.text });
    const item = (message: { externalId: string }, index: number, sentAt: string) => ({
      account: kit.whatsapp.id,
      external_id: message.externalId,
      name: 'Pelanggan',
      text: `zugcsetfail ${index}`,
      attachments: [],
      preview: `zugcsetfail ${index}`,
      sent_at: sentAt,
    });
    const items = customers.map((message, index) =>
      item(message, index, index === 2 ? 'bukan waktu' : new Date().toISOString()),
    );
    const answers = await withTenant(kit.server.database.db, kit.clientId, async (tx) => {
      const result = (await tx.execute(sql`
        select inbox_receive_inbound_batch(${kit.clientId}::uuid, ${JSON.stringify(items)}::jsonb,
          '{WAP}'::text[], '1 day'::interval) as answers`)) as unknown as {
        rows: Array<{ answers: Array<{ outcome: string; together?: boolean; sqlstate?: string }> | string }>;
      };
      const raw = result.rows[0].answers;
      return typeof raw === 'string' ? (JSON.parse(raw) as Exclude<typeof raw, string>) : raw;
    });
    expect(answers.map((answer) => answer.outcome)).toEqual(['stored', 'stored', 'failed', 'stored']);
    expect(answers.some((answer) => answer.together)).toBe(false);
    expect(answers[2].sqlstate).toBe('22007');
    for (const [index, message] of customers.entries()) {
      const texts = (await storedOf(message.externalId)).map((row) => row.text);
      expect(texts).toEqual(index === 2 ? [message.text] : [message.text, `zugcsetfail ${index}`]);
    }
  });

  it('a message the batch cannot keep fails alone, with its own error; the others are kept', async () => {
    const queue = kit.server.conversations.inbound;
    const before = { ...queue.stats };
    const sent = burst(8, 3, 'b');
    const unknownAccount = { ...kit.whatsapp, id: '00000000-0000-4000-8000-000000000000' };
    const settled = await Promise.allSettled([
      ...sent.map(send),
      // Arrives while the first two are in flight: it travels in a batch with customers 2–7.
      kit.inbound(unknownAccount, { externalId: 'gc-unknown', text: 'ke akun yang tidak ada' }),
    ]);
    expect(queue.stats.batches).toBeGreaterThan(before.batches);
    const refused = settled.at(-1);
    expect(refused?.status).toBe('rejected');
    expect(refused?.status === 'rejected' && (refused.reason as { statusCode?: number }).statusCode).toBe(
      404,
    );
    for (const [index, message] of sent.entries()) {
      const outcome = settled[index];
      expect(outcome.status).toBe('fulfilled');
      if (outcome.status === 'fulfilled') expect(outcome.value.message.text).toBe(message.text);
    }
  });

  it('when the batch as a whole fails, every message is stored again alone and only the bad one is refused', async () => {
    const queue = kit.server.conversations.inbound;
    const before = { ...queue.stats };
    const sent = burst(6, 3, 'c');
    const settled = await Promise.allSettled([
      ...sent.map(send),
      // PostgreSQL refuses a NUL character in text: the batch's whole statement fails.
      kit.inbound(kit.whatsapp, { externalId: 'gc-nul', text: 'rusak \u0000 di tengah' }),
      kit.inbound(kit.whatsapp, { externalId: 'gc-after-nul', text: 'zugcc setelah yang rusak' }),
    ]);
    expect(queue.stats.batchFailures).toBeGreaterThan(before.batchFailures);
    expect(settled.at(-2)?.status).toBe('rejected');
    expect(settled.at(-1)?.status).toBe('fulfilled');
    for (const outcome of settled.slice(0, sent.length)) expect(outcome.status).toBe('fulfilled');
    for (let customer = 0; customer < 6; customer++) {
      const externalId = sent[customer].externalId;
      expect((await storedOf(externalId)).map((row) => row.text)).toEqual(
        sent.filter((message) => message.externalId === externalId).map((message) => message.text),
      );
    }
    expect(await storedOf('gc-nul')).toEqual([]);
  });
});

// Several batches of one client at once, and agents at work in the same tickets: PostgreSQL
// only (PGlite serves one connection, so its transactions never overlap).
describe.skipIf(!process.env.DATABASE_URL)('inbound group commit beside agents (PostgreSQL)', () => {
  it('batches, replies and assignments in the same tickets at once neither deadlock nor lose a message', async () => {
    const queue = kit.server.conversations.inbound;
    const existing = burst(8, 1, 'd');
    const opened = await Promise.all(
      existing.map((message) =>
        kit.inbound(kit.whatsapp, { externalId: message.externalId, text: message.text }),
      ),
    );
    const before = { ...queue.stats };
    // Every existing customer writes 20 more times, 8 new customers write 3 times (opening
    // tickets takes the client's counters), while the owner assigns and answers every chat.
    const more = [
      ...burst(8, 20, 'd').map((message, index) => ({
        ...message,
        externalId: existing[index % 8].externalId,
      })),
      ...burst(8, 3, 'e'),
    ];
    const agents = opened.flatMap(({ ticket }, index) => [
      kit.server.request('POST', '/api/csp/chatRoom/transfer', {
        token: kit.tokens.owner,
        body: { ticketId: ticket.id, assigneeId: kit.userIds.agent1 },
      }),
      kit.server.request('POST', '/api/csp/chat/secure', {
        token: kit.tokens.owner,
        body: { ticketId: ticket.id, clientMessageId: `gc-reply-${run}-${index}`, text: 'zugcbalasan agen' },
      }),
    ]);
    const customers = more.map((message) =>
      kit.inbound(kit.whatsapp, {
        externalId: message.externalId,
        text: message.text,
        clientMessageId: message.clientMessageId,
      }),
    );
    const answers = await Promise.all(agents);
    for (const answer of answers) expect(answer.status).toBeLessThan(300);
    const stored = await Promise.all(customers);
    expect(stored.every((result) => !result.duplicate)).toBe(true);
    expect(queue.stats.batchedItems - before.batchedItems).toBeGreaterThan(50);
    expect(queue.stats.batchFailures).toBe(before.batchFailures);
    // No message was handed back by its batch (a deadlock would have been).
    expect(queue.stats.givenBack).toBe(before.givenBack);
    for (const message of existing) {
      const rows = await storedOf(message.externalId);
      expect(rows.map((row) => row.text)).toEqual([
        message.text,
        ...more.filter((sent) => sent.externalId === message.externalId).map((sent) => sent.text),
      ]);
    }
  });
});
