// The ticket table's filters and the search words the benches ask for: `bench:inbox` and
// `bench:ab` measure their first pages under load, `bench:explain` writes each filter's plans.
// One list, so the plans explain the pages that were measured.

const day = 86_400_000;

/** An ISO time `days` before now. */
export const isoDaysAgo = (days: number) => new Date(Date.now() - days * day).toISOString();

/** Query strings of the ticket table's list, by a short name for the plan files. */
export function tableFilters(): Record<string, string> {
  return {
    open: 'status=UNASSIGNED,ASSIGNED',
    resolved: 'status=RESOLVED',
    'closed-marketplaces': 'status=CLOSED&mediaPlatform=SHP,TPD,LZD',
    whatsapp: 'mediaPlatform=WAP',
    'tag-vip': 'tags=vip',
    'tags-priority': 'tags=retur,grosir&priority=3',
    'priority-1': 'priority=1',
    'created-range': `createdFrom=${isoDaysAgo(30)}&createdTo=${isoDaysAgo(20)}`,
    'resolved-last-week': `status=RESOLVED&createdFrom=${isoDaysAgo(7)}`,
    'tab-unassigned': 'tab=unassigned',
    expired: 'status=EXPIRED',
  };
}

/** Common words of the seeded messages that search is measured on (bench:inbox adds an invoice number and a customer's name). */
export const searchWords = ['pesanan', 'ongkir', 'refund', 'garansi', 'voucher'] as const;
