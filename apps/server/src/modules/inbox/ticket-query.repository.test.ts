import { describe, expect, it } from 'vitest';
import { hasPlanOfItsOwn } from './ticket-query.repository';

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
      expect(hasPlanOfItsOwn(filter), JSON.stringify(filter)).toBe(true);
    }
  });

  it('plans a page for its values when an index of its own may answer a rare one', () => {
    for (const filter of [
      { tags: ['vip'] },
      { customerInfo: 'budi' },
      { keyword: 'garansi' },
      { csId: ['6f1c1c1e-3c55-4d0e-9f63-1d7c1f5c2b11'] },
      { createdFrom: '2026-11-01T00:00:00Z' },
      { closedTo: '2026-11-01T00:00:00Z', status: ['CLOSED' as const] },
    ]) {
      expect(hasPlanOfItsOwn(filter), JSON.stringify(filter)).toBe(false);
    }
  });
});
