import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRooms, ticketActivity, tickets } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

const db = () => kit.server.database.db;

/** The ticket's keys as tickets holds them, and as its ticket_activity row does. */
async function keysOf(ticketId: number) {
  const [ticket] = await db()
    .select({
      clientId: tickets.clientId,
      status: tickets.status,
      assigneeId: tickets.assigneeId,
      lastMessageAt: tickets.lastMessageAt,
      expiresAt: tickets.expiresAt,
      channel: tickets.channel,
      createdAt: tickets.createdAt,
    })
    .from(tickets)
    .where(eq(tickets.id, ticketId));
  const [activity] = await db()
    .select({
      clientId: ticketActivity.clientId,
      status: ticketActivity.status,
      assigneeId: ticketActivity.assigneeId,
      lastMessageAt: ticketActivity.lastMessageAt,
      expiresAt: ticketActivity.expiresAt,
      channel: ticketActivity.channel,
      createdAt: ticketActivity.createdAt,
    })
    .from(ticketActivity)
    .where(eq(ticketActivity.id, ticketId));
  return { ticket, activity };
}

/** The row version of the ticket's activity row: it changes when the row is rewritten. */
async function activityVersion(ticketId: number): Promise<string> {
  const result = (await db().execute(
    sql`select xmin::text as version from ticket_activity where id = ${ticketId}`,
  )) as unknown as { rows: Array<{ version: string }> };
  return result.rows[0].version;
}

describe('ticket_activity (migration 0034)', () => {
  it('follows a ticket from its first message through later ones, assignment and closing', async () => {
    const { ticket } = await kit.inbound(kit.whatsapp, {
      externalId: 'activity-1',
      sentAt: new Date(Date.now() - 60_000),
    });
    let keys = await keysOf(ticket.id);
    expect(keys.activity).toEqual(keys.ticket);
    expect(keys.activity.expiresAt).not.toBeNull();

    await kit.inbound(kit.whatsapp, { externalId: 'activity-1', text: 'masih ada kak?' });
    const moved = await keysOf(ticket.id);
    expect(moved.activity).toEqual(moved.ticket);
    expect(moved.activity.lastMessageAt.getTime()).toBeGreaterThan(keys.activity.lastMessageAt.getTime());
    expect(moved.activity.expiresAt!.getTime()).toBeGreaterThan(keys.activity.expiresAt!.getTime());

    const transfer = await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, assigneeId: kit.userIds.agent2 },
    });
    expect(transfer.status).toBe(200);
    keys = await keysOf(ticket.id);
    expect(keys.activity).toMatchObject({ status: 'ASSIGNED', assigneeId: kit.userIds.agent2 });
    expect(keys.activity).toEqual(keys.ticket);

    const close = await kit.server.request('PUT', '/api/csp/chatRoom/status', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, status: 'CLOSED', remarks: 'Selesai' },
    });
    expect(close.status).toBe(200);
    keys = await keysOf(ticket.id);
    expect(keys.activity.status).toBe('CLOSED');
    expect(keys.activity).toEqual(keys.ticket);
  });

  it('leaves the row alone when an update changes none of its keys', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { externalId: 'activity-2' });
    const before = await activityVersion(ticket.id);
    await withTenant(db(), kit.clientId, (tx) =>
      tx
        .update(tickets)
        .set({ tags: ['vip'], remarks: 'pelanggan lama' })
        .where(eq(tickets.id, ticket.id)),
    );
    expect(await activityVersion(ticket.id)).toBe(before);
    await withTenant(db(), kit.clientId, (tx) =>
      tx.update(tickets).set({ lastMessageAt: new Date() }).where(eq(tickets.id, ticket.id)),
    );
    expect(await activityVersion(ticket.id)).not.toBe(before);
  });

  it('follows a changed creation time, which the EXPIRED filter reads (migration 0043)', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { externalId: 'activity-5' });
    const backdated = new Date(Date.now() - 3 * 86_400_000);
    await withTenant(db(), kit.clientId, (tx) =>
      tx.update(tickets).set({ createdAt: backdated }).where(eq(tickets.id, ticket.id)),
    );
    const keys = await keysOf(ticket.id);
    expect(keys.activity.createdAt.getTime()).toBe(backdated.getTime());
    expect(keys.activity).toEqual(keys.ticket);
  });

  it('goes with its ticket when the room is deleted', async () => {
    const { ticket, roomId } = await kit.inbound(kit.telegram, { externalId: 'activity-3' });
    await db().delete(chatRooms).where(eq(chatRooms.id, roomId));
    const rows = await db().select().from(ticketActivity).where(eq(ticketActivity.id, ticket.id));
    expect(rows).toEqual([]);
  });

  it('shows a client only its own rows', async () => {
    const { ticket } = await kit.inbound(kit.telegram, { externalId: 'activity-4' });
    const [other] = (await kit.server.database.query<{ id: string }>(
      `insert into clients (name, slug) values ('Toko Lain', 'toko-lain-activity') returning id`,
    )) as Array<{ id: string }>;
    const seen = await withTenant(db(), other.id, (tx) =>
      tx.select().from(ticketActivity).where(eq(ticketActivity.id, ticket.id)),
    );
    expect(seen).toEqual([]);
    const own = await withTenant(db(), kit.clientId, (tx) =>
      tx.select().from(ticketActivity).where(eq(ticketActivity.id, ticket.id)),
    );
    expect(own).toHaveLength(1);
  });
});
