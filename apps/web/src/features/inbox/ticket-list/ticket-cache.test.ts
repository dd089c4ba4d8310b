import type { TicketSummary } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { applyTicketToPages, rowsOf, type TicketPages } from './ticket-cache';
import { defaultTicketFilters, ticketFilterParams, ticketMatchesParams } from './ticket-filters';
import { countsAfterEvent } from './use-ticket-list-realtime';

const me = '00000000-0000-4000-8000-0000000000aa';
const someoneElse = '00000000-0000-4000-8000-0000000000bb';

function ticket(id: number, minute: number, extra: Partial<TicketSummary> = {}): TicketSummary {
  const at = new Date(Date.UTC(2026, 10, 22, 3, minute)).toISOString();
  return {
    id,
    roomId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    channelAccountId: '00000000-0000-4000-8000-000000000001',
    mediaPlatform: 'WAP',
    customer: {
      contactId: '00000000-0000-4000-8000-000000000002',
      name: `Pelanggan ${id}`,
      phone: null,
      email: null,
    },
    status: 'UNASSIGNED',
    expired: false,
    expiresAt: null,
    priority: 3,
    tags: [],
    categoryId: null,
    remarks: null,
    subject: null,
    groupId: null,
    assigneeId: null,
    submitterId: null,
    closedBy: null,
    createdAt: at,
    closedAt: null,
    lastMessageAt: at,
    lastMessagePreview: 'halo',
    unreadCount: 0,
    ...extra,
  };
}

const counts = { mine: 0, unassigned: 0, all: 0 };
function pages(...contents: Array<[TicketSummary[], string | null]>): TicketPages {
  return {
    pages: contents.map(([content, nextCursor]) => ({ content, nextCursor, counts })),
    pageParams: contents.map((_, index) => (index === 0 ? null : `c${index}`)),
  };
}
const ids = (data: TicketPages) => rowsOf(data).map((row) => row.id);

describe('applyTicketToPages', () => {
  const loaded = pages([[ticket(5, 50), ticket(4, 40)], 'c1'], [[ticket(3, 30), ticket(2, 20)], 'c2']);

  it('puts a new ticket on top when it is the newest', () => {
    expect(ids(applyTicketToPages(loaded, ticket(6, 55), true, 'lastMessageAt'))).toEqual([6, 5, 4, 3, 2]);
  });

  it('moves a row up when a new message makes it the latest activity', () => {
    const moved = applyTicketToPages(loaded, ticket(2, 59), true, 'lastMessageAt');
    expect(ids(moved)).toEqual([2, 5, 4, 3]);
    expect(moved.pages[1].content.map((row) => row.id)).toEqual([3]);
  });

  it('updates a row in place when its sort key did not change', () => {
    const updated = applyTicketToPages(loaded, ticket(4, 40, { unreadCount: 3 }), true, 'createdAt');
    expect(ids(updated)).toEqual([5, 4, 3, 2]);
    expect(rowsOf(updated)[1].unreadCount).toBe(3);
    expect(updated.pages[1]).toBe(loaded.pages[1]);
  });

  it('drops a row that no longer matches and leaves the list untouched for one never there', () => {
    expect(ids(applyTicketToPages(loaded, ticket(4, 40), false, 'createdAt'))).toEqual([5, 3, 2]);
    expect(applyTicketToPages(loaded, ticket(9, 45), false, 'createdAt')).toBe(loaded);
  });

  it('leaves a ticket whose place is past the loaded pages to the next page', () => {
    expect(applyTicketToPages(loaded, ticket(1, 10), true, 'createdAt')).toBe(loaded);
    const complete = pages([[ticket(5, 50)], null]);
    expect(ids(applyTicketToPages(complete, ticket(1, 10), true, 'createdAt'))).toEqual([5, 1]);
  });

  it('updates but never adds when the filters cannot be judged on the client', () => {
    expect(applyTicketToPages(loaded, ticket(9, 58), null, 'createdAt')).toBe(loaded);
    expect(
      rowsOf(applyTicketToPages(loaded, ticket(3, 30, { priority: 1 }), null, 'createdAt'))[2].priority,
    ).toBe(1);
  });

  it('lists a ticket once even if a later page brings it again', () => {
    const twice = pages([[ticket(5, 50), ticket(4, 40)], 'c1'], [[ticket(4, 40), ticket(3, 30)], null]);
    expect(ids(twice)).toEqual([5, 4, 3]);
  });
});

describe('ticketMatchesParams', () => {
  const zone = 'Asia/Jakarta';
  const today = new Date(Date.UTC(2026, 10, 22, 5, 0));
  const params = {
    ...ticketFilterParams(defaultTicketFilters(zone, today), zone),
    sort: 'createdAt' as const,
  };
  const viewer = { userId: me, openOnly: false };

  it('follows the tabs: mine, unassigned, all', () => {
    const mine = ticket(1, 10, { status: 'ASSIGNED', assigneeId: me });
    const theirs = ticket(2, 10, { status: 'ASSIGNED', assigneeId: someoneElse });
    expect(ticketMatchesParams(mine, { ...params, tab: 'mine' }, viewer)).toBe(true);
    expect(ticketMatchesParams(theirs, { ...params, tab: 'mine' }, viewer)).toBe(false);
    expect(ticketMatchesParams(theirs, { ...params, tab: 'unassigned' }, viewer)).toBe(false);
    expect(ticketMatchesParams(theirs, { ...params, tab: 'all' }, viewer)).toBe(true);
  });

  it('keeps closed chats out of the conversation list only', () => {
    const closed = ticket(1, 10, { status: 'CLOSED', assigneeId: me });
    expect(ticketMatchesParams(closed, params, viewer)).toBe(true);
    expect(ticketMatchesParams(closed, params, { userId: me, openOnly: true })).toBe(false);
  });

  it('judges the created day in the client zone (today by default)', () => {
    const yesterday = ticket(1, 0, { createdAt: '2026-11-21T16:59:00.000Z' });
    const earlyToday = ticket(2, 0, { createdAt: '2026-11-21T17:00:00.000Z' });
    expect(ticketMatchesParams(yesterday, params, viewer)).toBe(false);
    expect(ticketMatchesParams(earlyToday, params, viewer)).toBe(true);
  });

  it('applies channel, status (expired included), priority, tag and customer filters', () => {
    const row = ticket(1, 10, { mediaPlatform: 'IGM', priority: 1, tags: ['retur'], expired: true });
    expect(ticketMatchesParams(row, { ...params, mediaPlatform: 'WAP,LVC' }, viewer)).toBe(false);
    expect(ticketMatchesParams(row, { ...params, mediaPlatform: 'IGM' }, viewer)).toBe(true);
    expect(ticketMatchesParams(row, { ...params, status: 'EXPIRED' }, viewer)).toBe(true);
    expect(ticketMatchesParams(row, { ...params, status: 'CLOSED' }, viewer)).toBe(false);
    expect(ticketMatchesParams(row, { ...params, priority: '2,3' }, viewer)).toBe(false);
    expect(ticketMatchesParams(row, { ...params, tags: 'retur' }, viewer)).toBe(true);
    expect(ticketMatchesParams(row, { ...params, customerInfo: 'pelanggan 1' }, viewer)).toBe(true);
    expect(ticketMatchesParams(row, { ...params, customerInfo: 'budi' }, viewer)).toBe(false);
  });

  it('cannot tell a keyword match on the client', () => {
    expect(ticketMatchesParams(ticket(1, 10), { ...params, keyword: 'ongkir' }, viewer)).toBeNull();
  });
});

describe('countsAfterEvent', () => {
  const previous = { mine: 4, unassigned: 2, all: 10 };
  const supervisor = { userId: me, seesAll: true, seesQueue: true };

  it('takes the client counts and the user own count when the event touched it', () => {
    const other = { all: 11, unassigned: 3, assignees: { [someoneElse]: 1 } };
    expect(countsAfterEvent(previous, other, supervisor)).toEqual({ mine: 4, unassigned: 3, all: 11 });
    const mine = { all: 11, unassigned: 2, assignees: { [me]: 5 } };
    expect(countsAfterEvent(previous, mine, supervisor)).toEqual({ mine: 5, unassigned: 2, all: 11 });
  });

  it('narrows the counts like the server for agents who do not see every chat', () => {
    const agent = { userId: me, seesAll: false, seesQueue: true };
    const event = { all: 40, unassigned: 3, assignees: { [me]: 5 } };
    expect(countsAfterEvent(previous, event, agent)).toEqual({ mine: 5, unassigned: 3, all: 8 });
    const playMode = { userId: me, seesAll: false, seesQueue: false };
    const queueOnly = { all: 40, unassigned: 3, assignees: {} };
    expect(countsAfterEvent(previous, queueOnly, playMode)).toEqual({ mine: 4, unassigned: 0, all: 4 });
  });
});
