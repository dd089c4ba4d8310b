import { describe, expect, it } from 'vitest';
import { hasPlanOfItsOwn } from './ticket-conditions';

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
