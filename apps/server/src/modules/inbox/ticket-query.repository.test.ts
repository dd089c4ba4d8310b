import { describe, expect, it } from 'vitest';
import type { InboxScope } from './inbox.policy';
import {
  fieldConditions,
  hasPlanOfItsOwn,
  showsEveryMatch,
  type TicketFilter,
  type TicketPageRequest,
} from './ticket-conditions';
import { listDefaults } from './ticket-query.service';

describe('hasPlanOfItsOwn', () => {
  it('keeps one plan for the tabs, the default views and filters no index answers', () => {
    for (const filter of [
      {},
      { tab: 'mine' as const },
      { status: ['UNASSIGNED' as const, 'ASSIGNED' as const] },
      { status: ['EXPIRED' as const] },
      { mediaPlatform: ['WAP' as const, 'IGM' as const], priority: [1] },
      { remarksOrSubject: 'retur', categoryId: '6f1c1c1e-3c55-4d0e-9f63-1d7c1f5c2b11' },
      { tags: [], customerInfo: '', keyword: undefined },
    ]) {
      expect(hasPlanOfItsOwn(filter, 'lastMessageAt'), JSON.stringify(filter)).toBe(true);
      expect(hasPlanOfItsOwn(filter, 'createdAt'), JSON.stringify(filter)).toBe(true);
    }
  });

  it('keeps one plan for a creation date range only newest created first, where it bounds the page’s index', () => {
    const lastWeek = { status: ['RESOLVED' as const], createdFrom: '2026-11-18T00:00:00Z' };
    expect(hasPlanOfItsOwn(lastWeek, 'createdAt')).toBe(true);
    expect(hasPlanOfItsOwn({ createdTo: '2026-11-01T00:00:00Z' }, 'createdAt')).toBe(true);
    // By activity a short range may be read from the creation index and sorted instead.
    expect(hasPlanOfItsOwn(lastWeek, 'lastMessageAt')).toBe(false);
    expect(hasPlanOfItsOwn({ ...lastWeek, tags: ['vip'] }, 'createdAt')).toBe(false);
  });

  it('plans a page for its values when an index of its own may answer a rare one', () => {
    for (const filter of [
      { tags: ['vip'] },
      { customerInfo: 'budi' },
      { keyword: 'garansi' },
      { csId: ['6f1c1c1e-3c55-4d0e-9f63-1d7c1f5c2b11'] },
      { closedTo: '2026-11-01T00:00:00Z', status: ['CLOSED' as const] },
    ]) {
      expect(hasPlanOfItsOwn(filter, 'createdAt'), JSON.stringify(filter)).toBe(false);
    }
  });
});

describe('showsEveryMatch', () => {
  const scope = (seesAll: boolean): InboxScope => ({
    userId: '6f1c1c1e-3c55-4d0e-9f63-1d7c1f5c2b11',
    clientId: '0b7e4a52-8d1f-4c59-a0f4-5a3e2c1d9b77',
    seesAll,
    seesQueue: true,
    canReply: true,
    canBeAssigned: !seesAll,
    canManage: seesAll,
  });
  const request = (filter: TicketFilter, seesAll = true): TicketPageRequest => ({
    scope: scope(seesAll),
    filter,
    defaultStatuses: listDefaults.table,
    sort: 'createdAt',
    after: null,
    limit: 51,
  });
  const shows = (page: TicketPageRequest) => showsEveryMatch(page, fieldConditions(page));

  it('holds for a keyword alone or within a creation range, for a caller who reads every ticket', () => {
    expect(shows(request({ keyword: 'lebaran' }))).toBe(true);
    expect(shows(request({ keyword: 'lebaran', tab: 'all' }))).toBe(true);
    expect(
      shows(
        request({
          keyword: 'lebaran',
          createdFrom: '2026-03-01T00:00:00Z',
          createdTo: '2026-05-01T00:00:00Z',
        }),
      ),
    ).toBe(true);
  });

  it('fails where a filter, a status, a tab or the caller’s own view may drop a match', () => {
    for (const filter of [
      { keyword: 'lebaran', mediaPlatform: ['WAP' as const] },
      { keyword: 'lebaran', status: ['CLOSED' as const] },
      { keyword: 'lebaran', status: ['EXPIRED' as const] },
      { keyword: 'lebaran', tab: 'mine' as const },
      { keyword: 'lebaran', tab: 'unassigned' as const },
      { keyword: 'lebaran', tags: ['vip'] },
      { keyword: 'lebaran', customerInfo: 'budi' },
      { keyword: 'lebaran', closedFrom: '2026-04-01T00:00:00Z' },
    ]) {
      expect(shows(request(filter)), JSON.stringify(filter)).toBe(false);
    }
    expect(shows(request({ keyword: 'lebaran' }, false))).toBe(false);
    expect(shows({ ...request({ keyword: 'lebaran' }), defaultStatuses: listDefaults.inbox })).toBe(false);
  });
});
