import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/tenant';
import { createClientWithUser } from '../../test/factories';
import { createConversation } from '../../test/inbox-factories';
import { type InboxTestKit, searchedTicketIds, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;
let otherClientId: string;

beforeAll(async () => {
  kit = await startInboxTestKit();
  otherClientId = (await createClientWithUser(kit.server.database.db)).clientId;
});
afterAll(async () => {
  await kit?.server.close();
});

/** The client's names in ticket_customer_names that contain the text, as the tenant reads them. */
async function namesOf(clientId: string, containing: string): Promise<string[]> {
  return withTenant(kit.server.database.db, clientId, async (tx) => {
    const result = await tx.execute(
      sql`select name from ticket_customer_names where name like ${`%${containing}%`} order by name`,
    );
    return (result as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name);
  });
}

const newCustomer = (name: string) => ({
  customer: { externalId: `names-${name}-${Math.random().toString(36).slice(2)}`, name },
});

describe('ticket_customer_names (migration 0045)', () => {
  it('keeps each client’s distinct names, lowered, as its tickets are made, and shows a tenant only its own', async () => {
    // Several new customers at once, through the inbound seam: two of one name, one in capitals.
    const made = await Promise.all(
      ['Gendhis Kencana Ayu', 'Gendhis Kencana Ayu', 'GENDHIS KENCANA AYU', 'Gendhis Sari'].map((name) =>
        kit.inbound(kit.whatsapp, newCustomer(name)),
      ),
    );
    expect(new Set(made.map((result) => result.ticket.id)).size).toBe(4);
    // And one of the same name in another client, made by a plain insert of its ticket.
    await createConversation(kit.server.database.db, {
      clientId: otherClientId,
      customer: { name: 'Gendhis Kencana Ayu' },
    });

    expect(await namesOf(kit.clientId, 'gendhis')).toEqual(['gendhis kencana ayu', 'gendhis sari']);
    expect(await namesOf(otherClientId, 'gendhis')).toEqual(['gendhis kencana ayu']);

    // The full name, however typed, finds the client's three tickets of it and no other.
    const ofName = made.slice(0, 3).map((result) => result.ticket.id);
    expect((await searchedTicketIds(kit, 'gendhis kencana ayu')).sort()).toEqual([...ofName].sort());
    expect((await searchedTicketIds(kit, 'Kencana AYU')).sort()).toEqual([...ofName].sort());
    expect((await searchedTicketIds(kit, 'gendhis')).sort()).toEqual(
      made.map((result) => result.ticket.id).sort(),
    );
  });

  it('adds a ticket’s changed name; the old name, left without tickets, finds nothing', async () => {
    const { ticket } = await kit.inbound(kit.telegram, newCustomer('Yohana Pertiwi'));
    expect(await searchedTicketIds(kit, 'yohana pertiwi')).toEqual([ticket.id]);
    await kit.server.database.query(`update tickets set customer_name = 'Yohana Simatupang' where id = $1`, [
      ticket.id,
    ]);
    expect(await namesOf(kit.clientId, 'yohana')).toEqual(['yohana pertiwi', 'yohana simatupang']);
    expect(await searchedTicketIds(kit, 'yohana simatupang')).toEqual([ticket.id]);
    expect(await searchedTicketIds(kit, 'pertiwi')).toEqual([]);
    // A change to another column leaves the names alone.
    await kit.server.database.query(`update tickets set remarks = 'pelanggan lama' where id = $1`, [
      ticket.id,
    ]);
    expect(await namesOf(kit.clientId, 'yohana')).toEqual(['yohana pertiwi', 'yohana simatupang']);
  });

  it('finds names by a word of two letters, which has no trigram, and by a name with one', async () => {
    const { ticket } = await kit.inbound(kit.whatsapp, newCustomer('Oq Zulkarnaen'));
    expect(await searchedTicketIds(kit, 'oq')).toEqual([ticket.id]);
    expect(await searchedTicketIds(kit, 'oq zulkarnaen')).toEqual([ticket.id]);
    expect(await searchedTicketIds(kit, 'q zulk')).toEqual([ticket.id]);
    expect(await searchedTicketIds(kit, 'zulkarnaen oq')).toEqual([]);
  });

  it('gives the name lookup nothing for a client other than the transaction’s', async () => {
    const rows = await withTenant(kit.server.database.db, kit.clientId, async (tx) => {
      const result = await tx.execute(
        sql`select * from inbox_keyword_name_ids(${otherClientId}, '%gendhis%', null, 10)`,
      );
      return (result as unknown as { rows: unknown[] }).rows;
    });
    expect(rows).toEqual([]);
  });
});
