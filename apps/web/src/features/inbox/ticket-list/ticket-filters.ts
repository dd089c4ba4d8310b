import type { ChannelCode, InboxTab, TicketStatusFilter, TicketSummary } from '@app/contracts';
import { type DayRange, dayRangeToInstants, todayRange } from '../shared/inbox-time';

/**
 * The default ticket filter fields (core-inbox §3) as the screens hold them: days rather
 * than instants, lists rather than comma-joined text. "Custom fields" has no fields
 * defined yet, so it has no place here.
 */
export interface TicketFilters {
  customerInfo: string;
  tags: string[];
  created: DayRange;
  closed: DayRange;
  remarksOrSubject: string;
  mediaPlatform: ChannelCode[];
  csId: string[];
  closedBy: string[];
  createdBy: string[];
  csGroup: string[];
  status: TicketStatusFilter[];
  priority: string[];
  keyword: string;
}

/**
 * The filters a fresh screen starts with: created today in the client's zone. The spec's
 * other default (status closed) is left out: the tabs count open chats, and a closed-only
 * default would leave the unassigned tab empty by construction.
 */
export function defaultTicketFilters(zone: string, now: Date = new Date()): TicketFilters {
  return {
    customerInfo: '',
    tags: [],
    created: todayRange(zone, now),
    closed: [null, null],
    remarksOrSubject: '',
    mediaPlatform: [],
    csId: [],
    closedBy: [],
    createdBy: [],
    csGroup: [],
    status: [],
    priority: [],
    keyword: '',
  };
}

/** The filters with nothing narrowing the list (the search screens start here). */
export function emptyTicketFilters(): TicketFilters {
  return { ...defaultTicketFilters('UTC'), created: [null, null] };
}

/** Query parameters of `ticketFilterQuery`; empty fields are left out. */
export function ticketFilterParams(filters: TicketFilters, zone: string): Record<string, string | undefined> {
  const created = dayRangeToInstants(filters.created, zone);
  const closed = dayRangeToInstants(filters.closed, zone);
  const list = (values: ReadonlyArray<string>) => (values.length > 0 ? values.join(',') : undefined);
  const text = (value: string) => value.trim() || undefined;
  return {
    customerInfo: text(filters.customerInfo),
    tags: list(filters.tags),
    createdFrom: created.from,
    createdTo: created.to,
    closedFrom: closed.from,
    closedTo: closed.to,
    remarksOrSubject: text(filters.remarksOrSubject),
    mediaPlatform: list(filters.mediaPlatform),
    csId: list(filters.csId),
    closedBy: list(filters.closedBy),
    createdBy: list(filters.createdBy),
    csGroup: list(filters.csGroup),
    status: list(filters.status),
    priority: list(filters.priority),
    keyword: text(filters.keyword),
  };
}

/** How many filter fields narrow the list compared with `base` (for the drawer's badge). */
export function changedFilterCount(filters: TicketFilters, base: TicketFilters): number {
  return (Object.keys(filters) as Array<keyof TicketFilters>).filter(
    (key) => JSON.stringify(filters[key]) !== JSON.stringify(base[key]),
  ).length;
}

/** The query a list asks the server for, also used as the cache key of that list. */
export type TicketListParams = Record<string, string | undefined> & {
  tab?: InboxTab;
  sort: 'createdAt' | 'lastMessageAt';
};

function within(iso: string | null, from: string | undefined, to: string | undefined): boolean {
  if (!from && !to) return true;
  if (!iso) return false;
  const time = new Date(iso).getTime();
  return (!from || time >= new Date(from).getTime()) && (!to || time <= new Date(to).getTime());
}

function inList(values: string | undefined, value: string | null): boolean {
  if (!values) return true;
  return value !== null && values.split(',').includes(value);
}

/**
 * Whether a ticket belongs in a list, judged on the client from what an event carries.
 * Answers null when it cannot tell (a keyword or category filter needs the server):
 * the row is then updated where it is, but never added.
 */
export function ticketMatchesParams(
  ticket: TicketSummary,
  params: TicketListParams,
  viewer: { userId: string; openOnly: boolean },
): boolean | null {
  const open = ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
  if (params.tab === 'mine' && ticket.assigneeId !== viewer.userId) return false;
  if (params.tab === 'unassigned' && ticket.status !== 'UNASSIGNED') return false;
  if (viewer.openOnly && !open) return false;
  if (!within(ticket.createdAt, params.createdFrom, params.createdTo)) return false;
  if (!within(ticket.closedAt, params.closedFrom, params.closedTo)) return false;
  if (!inList(params.mediaPlatform, ticket.mediaPlatform)) return false;
  if (!inList(params.csId, ticket.assigneeId)) return false;
  if (!inList(params.closedBy, ticket.closedBy)) return false;
  if (!inList(params.createdBy, ticket.submitterId)) return false;
  if (!inList(params.csGroup, ticket.groupId)) return false;
  if (!inList(params.priority, String(ticket.priority))) return false;
  if (params.status) {
    const wanted = params.status.split(',');
    const matches = wanted.some((status) =>
      status === 'EXPIRED' ? open && ticket.expired : status === ticket.status,
    );
    if (!matches) return false;
  }
  if (params.tags && !params.tags.split(',').some((tag) => ticket.tags.includes(tag))) return false;
  if (params.customerInfo) {
    const needle = params.customerInfo.toLowerCase();
    const { name, phone, email } = ticket.customer;
    if (![name, phone, email].some((field) => field?.toLowerCase().includes(needle))) return false;
  }
  if (params.remarksOrSubject) {
    const needle = params.remarksOrSubject.toLowerCase();
    if (![ticket.remarks, ticket.subject].some((field) => field?.toLowerCase().includes(needle)))
      return false;
  }
  if (params.keyword || params.categoryId) return null;
  return true;
}
