import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GinPendingListsKeeper } from '../../db/gin-pending-lists.keeper';
import { withTenant } from '../../db/tenant';
import { eventually, type InboxTestKit, searchedTicketIds, startInboxTestKit } from './conversation.fixtures';

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

const search = (keyword: string) => searchedTicketIds(kit, keyword);

describe('the GIN pending lists (migration 0033)', () => {
  it('merges what a customer’s message left in the GIN indexes, and a second round finds nothing left', async () => {
    await kit.server.ginPendingLists.round();
    await kit.inbound(kit.whatsapp, { customer: { externalId: 'gin-1', name: 'Zulaikha Pending' } });
    expect(await kit.server.ginPendingLists.round()).toBeGreaterThan(0);
    expect(await kit.server.ginPendingLists.round()).toBe(0);
    expect(kit.server.ginPendingLists.stats.failures).toBe(0);
  });

  it('loses no entry: a search finds the words and the name it merged', async () => {
    const { ticket } = await kit.inbound(kit.telegram, {
      customer: { externalId: 'gin-2', name: 'Zubaidah Gabung' },
      text: 'kirim zugabung hari ini',
    });
    await kit.server.searchWords.tick();
    expect(await kit.server.ginPendingLists.round()).toBeGreaterThan(0);
    expect(await search('zugabung')).toEqual([ticket.id]);
    expect(await search('Zubaidah Gab')).toEqual([ticket.id]);
  });

  it('is not the tenants’ to call', async () => {
    await expect(
      withTenant(kit.server.database.db, kit.clientId, (tx) =>
        tx.execute(sql`select gin_pending_lists_clean()`),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/permission denied/) } });
  });

  it('merges on its own timer in a worker process', async () => {
    await kit.inbound(kit.whatsapp, { externalId: 'gin-3', text: 'zuwaktu' });
    const keeper = new GinPendingListsKeeper(kit.server.database, pino({ level: 'silent' }));
    keeper.start(20);
    try {
      await eventually(async () => keeper.stats.pages > 0);
    } finally {
      await keeper.stop();
    }
    expect(await kit.server.ginPendingLists.round()).toBe(0);
  });
});

// Two connections at once: PostgreSQL only (PGlite serves one connection).
describe.skipIf(!process.env.DATABASE_URL)('the GIN pending lists beside another caller (PostgreSQL)', () => {
  it('passes while another caller merges, and merges next round', async () => {
    await kit.inbound(kit.whatsapp, { externalId: 'gin-4', text: 'zubersama' });
    const other = new pg.Client({ connectionString: kit.server.config.DATABASE_URL });
    await other.connect();
    try {
      await other.query('begin');
      await other.query("select pg_advisory_xact_lock(hashtextextended('gin_pending_lists_clean', 0))");
      expect(await kit.server.ginPendingLists.round()).toBe(0);
      await other.query('commit');
    } finally {
      await other.end();
    }
    expect(await kit.server.ginPendingLists.round()).toBeGreaterThan(0);
  });
});
