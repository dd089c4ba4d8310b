import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { createChannelAccount } from '../../test/inbox-factories';
import { type InboxTestKit, startInboxTestKit } from './conversation.fixtures';
import { knownKeywordVerdict } from './ticket-keyword';
import { keywordPage } from './ticket-search-pages.fixtures';
import { SearchWordsKeeper } from './ticket-search-words.keeper';

// Search parts open while they are written (migration 0038): only sealed parts are in the word
// indexes, and a search reads the open ones beside them.

let kit: InboxTestKit;

beforeAll(async () => {
  kit = await startInboxTestKit();
});
afterAll(async () => {
  await kit?.server.close();
});

/** The ticket's parts once every stored message's words have reached them: open or sealed. */
async function partsOf(ticketId: number): Promise<Array<{ part: number; open: boolean }>> {
  await kit.server.searchWords.tick();
  return kit.server.database.query<{ part: number; open: boolean }>(
    'select part, written_at is not null as open from ticket_search where ticket_id = $1 order by part',
    [ticketId],
  );
}

/**
 * The keyword's page by every way a search reads it: its ids through the indexes (a rare
 * keyword), a walk testing each ticket (past the cap, on a page by last message), and by day
 * (a thin keyword on a page newest created first). Each way asks with its own cap, so that
 * no verdict remembered by another decides its way.
 */
async function everyWay(keyword: string): Promise<Record<string, number[]>> {
  const found = {
    ids: await keywordPage(kit, { keyword }, 5000),
    walk: await keywordPage(kit, { keyword }, 0, { sort: 'lastMessageAt' }),
    byDay: await keywordPage(kit, { keyword }, 4999, { denseFrom: 1 }),
  };
  expect(knownKeywordVerdict(kit.clientId, keyword, 4999), keyword).toBe('thin');
  return found;
}

/** The same page whichever way it is read. */
const anyWay = (ids: number[]) => ({ ids, walk: ids, byDay: ids });

describe('open search parts', () => {
  it('finds a part while it is open, and after it is sealed into the word indexes', async () => {
    const first = await kit.inbound(kit.whatsapp, { externalId: 'open-1', text: 'Kardus zamrud sobek' });
    const ticketId = first.ticket.id;
    expect(await partsOf(ticketId)).toEqual([{ part: 0, open: true }]);
    expect(await everyWay('zamrud')).toEqual(anyWay([ticketId]));

    // Not yet quiet for a minute: it stays open.
    expect(await kit.server.searchWords.sealQuietParts(60_000)).toBe(0);
    expect(await partsOf(ticketId)).toEqual([{ part: 0, open: true }]);
    expect(await kit.server.searchWords.sealQuietParts(0)).toBeGreaterThanOrEqual(1);
    expect(await partsOf(ticketId)).toEqual([{ part: 0, open: false }]);
    expect(await everyWay('sobek')).toEqual(anyWay([ticketId]));

    // A message with no new word leaves it sealed; one with a new word opens it again.
    await kit.inbound(kit.whatsapp, { externalId: 'open-1', text: 'kardus sobek' });
    expect(await partsOf(ticketId)).toEqual([{ part: 0, open: false }]);
    await kit.inbound(kit.whatsapp, { externalId: 'open-1', text: 'Isinya pirus' });
    expect(await partsOf(ticketId)).toEqual([{ part: 0, open: true }]);
    expect(await everyWay('pirus')).toEqual(anyWay([ticketId]));
    expect(await everyWay('kardus')).toEqual(anyWay([ticketId]));
  });

  it('reads open and sealed parts of several tickets together, and no other client’s', async () => {
    const sealed = await kit.inbound(kit.telegram, { text: 'Warna zirkon habis?' });
    await partsOf(sealed.ticket.id);
    await kit.server.searchWords.sealQuietParts(0);
    const open = await kit.inbound(kit.telegram, { text: 'Zirkon ukuran besar ada?' });
    // Another client's open part with the same words.
    const other = await createClientWithUser(kit.server.database.db);
    const foreign = await createChannelAccount(kit.server.database.db, other.clientId, { channel: 'WAP' });
    const theirs = await kit.server.conversations.receiveInbound({
      clientId: other.clientId,
      channelAccountId: foreign.id,
      customer: { externalId: '6281299000001', name: 'Pelanggan lain' },
      text: 'Zirkon besar habis?',
    });
    expect(await partsOf(theirs.ticket.id)).toEqual([{ part: 0, open: true }]);
    expect(await partsOf(open.ticket.id)).toEqual([{ part: 0, open: true }]);
    expect(await partsOf(sealed.ticket.id)).toEqual([{ part: 0, open: false }]);
    const both = [open.ticket.id, sealed.ticket.id];
    expect(await everyWay('zirkon')).toEqual(anyWay(both));
    expect(await everyWay('zirkon besar')).toEqual(anyWay([open.ticket.id]));
    expect(await everyWay('zirkon -besar')).toEqual(anyWay([sealed.ticket.id]));
  });

  it('seals round after round while a round comes back full, within one housekeeping', async () => {
    const tickets: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      const { ticket } = await kit.inbound(kit.telegram, { text: `Pesanan zusafir nomor ${index}` });
      tickets.unshift(ticket.id);
    }
    await kit.server.searchWords.tick();
    const openParts = async () =>
      Number(
        (
          await kit.server.database.query<{ count: number }>(
            'select count(*) as count from ticket_search where written_at is not null',
          )
        )[0]?.count,
      );
    const open = await openParts();
    expect(open).toBeGreaterThanOrEqual(6);
    // Three rounds' worth: a keeper that stopped after one full round would leave two thirds.
    const keeper = new SearchWordsKeeper(kit.server.database, pino({ level: 'silent' }), {
      partQuietMs: 0,
      sealBatch: Math.ceil(open / 3),
    });
    await keeper.tick();
    expect(await openParts()).toBe(0);
    expect(keeper.stats.failures).toBe(0);
    expect(await everyWay('zusafir')).toEqual(anyWay(tickets));
  });
});
