import type { TicketFilterQuery, TicketStatus } from '@app/contracts';
import { and, or, type SQL, type StringChunk, sql } from 'drizzle-orm';
import { renderedColumns } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { ticketActivity, tickets } from '../../db/schema';
import type { InboxScope } from './inbox.policy';
import {
  type CreatedRange,
  containsPattern,
  type KeywordMatch,
  keywordCondition,
  keywordDenseFrom,
  keywordIdCap,
  phonePatternOf,
} from './ticket-keyword';

/**
 * What a ticket list page asks for, and the WHERE it is read with: the branches (each one
 * index range in sort order) and every filter's condition. The page's statement around them
 * is ticket-query.repository.ts's.
 */

export type TicketFilter = Omit<TicketFilterQuery, 'sort' | 'cursor' | 'pageSize'>;
export type TicketSort = TicketFilterQuery['sort'];

/** Where the previous page ended: the last row's sort value (as PostgreSQL text) and id. */
export interface KeysetPosition {
  key: string;
  id: number;
}

export interface TicketPageRequest {
  scope: InboxScope;
  filter: TicketFilter;
  /** Stored statuses to show when the filter names none (the inbox shows open chats). */
  defaultStatuses: readonly TicketStatus[];
  sort: TicketSort;
  after: KeysetPosition | null;
  limit: number;
  /** Matching tickets past which a keyword counts as common (keywordIdCap unless a test says). */
  keywordIdCap?: number;
  /** Matching tickets from which a keyword is tried for density (keywordDenseFrom unless a test says). */
  keywordDenseFrom?: number;
  /** Read the tab counters in the same statement (on each row; a page without rows has none). */
  withCounters?: boolean;
}

const storedStatuses: readonly TicketStatus[] = ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'];

/** A stored status, and whether only its expired tickets are wanted. */
export interface StatusPart {
  status: TicketStatus;
  expiredOnly: boolean;
}

/** One part of the page, read from one index range: some statuses (null: all), maybe only mine. */
export interface Branch {
  statuses: StatusPart[] | null;
  assigneeIsMe: boolean;
}

/** Which stored statuses the filter asks for; EXPIRED means open and past expiry. */
function statusParts(filter: TicketFilter, defaults: readonly TicketStatus[]): StatusPart[] {
  if (!filter.status?.length) return defaults.map((status) => ({ status, expiredOnly: false }));
  const parts = new Map<TicketStatus, boolean>();
  for (const wanted of filter.status) if (wanted !== 'EXPIRED') parts.set(wanted, false);
  if (filter.status.includes('EXPIRED')) {
    for (const open of ['UNASSIGNED', 'ASSIGNED'] as const) if (!parts.has(open)) parts.set(open, true);
  }
  return [...parts].map(([status, expiredOnly]) => ({ status, expiredOnly }));
}

/**
 * Splits the request into parts that each read one index range in sort order, with the
 * visibility of inbox.policy.ts and the tab applied:
 * - only the caller's own chats: one part on ticket_activity_assignee_idx (by activity);
 * - every status alike, newest created first: one part on tickets_client_created_idx;
 * - otherwise one part per status on tickets_client_status_created_idx, or by activity on
 *   ticket_activity_status_idx (and one for the caller's own chats on the assignee index),
 *   merged from short index ranges.
 * Parts are disjoint by status, so their UNION ALL never repeats a row.
 */
export function planBranches(request: TicketPageRequest): Branch[] {
  const { scope, filter } = request;
  const parts = statusParts(filter, request.defaultStatuses).filter(
    (part) => filter.tab !== 'unassigned' || part.status === 'UNASSIGNED',
  );
  if (parts.length === 0) return [];
  const everyStatus = parts.length === storedStatuses.length && parts.every((part) => !part.expiredOnly);
  const mineOnly = (part: StatusPart) =>
    filter.tab === 'mine' || !(scope.seesAll || (part.status === 'UNASSIGNED' && scope.seesQueue));
  const mine = parts.filter(mineOnly);
  const whole = parts.filter((part) => !mineOnly(part));
  if (whole.length === 0) return [{ statuses: everyStatus ? null : parts, assigneeIsMe: true }];
  if (everyStatus && request.sort === 'createdAt' && mine.length === 0) {
    return [{ statuses: null, assigneeIsMe: false }];
  }
  const branches = whole.map((part) => ({ statuses: [part], assigneeIsMe: false }));
  // By activity the caller's own chats come in order from the assignee index in one part.
  if (request.sort === 'lastMessageAt' && mine.length > 0) {
    branches.push({ statuses: mine, assigneeIsMe: true });
  } else {
    branches.push(...mine.map((part) => ({ statuses: [part], assigneeIsMe: true })));
  }
  return branches;
}

/** The columns of tickets as rendered names, for the conditions built on every page. */
export const ticketColumn = renderedColumns(tickets);

/** The columns of ticket_activity as rendered names: the list by activity's keys (migration 0034). */
export const activityColumn = renderedColumns(ticketActivity);

/**
 * The columns a page's branches are read by: its client, status, assignee and expiry, its
 * order (`sort`, then `id`), and its channel. By creation they are the ticket's own; by
 * activity they are its `ticket_activity` row's, whose indexes hold them in order (and the
 * channel and status after the order, tested on the index entry: migration 0037). A filter
 * by channel or agent reads these too, so a page by activity reads one agent's chats from
 * the assignee index.
 */
export interface PageKeys {
  clientId: StringChunk;
  status: StringChunk;
  assigneeId: StringChunk;
  expiresAt: StringChunk;
  channel: StringChunk;
  id: StringChunk;
  sort: StringChunk;
}

const pageKeys: Partial<Record<TicketSort, PageKeys>> = {};

/** The page's key columns for its sort, made once. */
export function pageKeysOf(sort: TicketSort): PageKeys {
  pageKeys[sort] ??=
    sort === 'createdAt'
      ? { ...ticketColumn(), sort: ticketColumn().createdAt }
      : { ...activityColumn(), sort: activityColumn().lastMessageAt };
  return pageKeys[sort];
}

/**
 * By creation, a part of expired chats only reads ticket_activity's open chats newest created
 * first (ticket_activity_open_created_idx, migration 0043), with the expiry tested on the index
 * entry, and joins only the tickets it shows. Any other part reads tickets' own indexes.
 */
export function readsOpenByCreation(sort: TicketSort, branch: Branch): boolean {
  return (
    sort === 'createdAt' && branch.statuses !== null && branch.statuses.every((part) => part.expiredOnly)
  );
}

let openByCreationKeys: PageKeys | undefined;

/** The activity row's keys, ordered by its ticket's creation: `readsOpenByCreation`'s branches. */
export function openByCreationKeysOf(): PageKeys {
  openByCreationKeys ??= { ...activityColumn(), sort: activityColumn().createdAt };
  return openByCreationKeys;
}

/**
 * A stored status written into the statement as a literal: a generic plan then still knows
 * that an open status lies inside a partial index of open chats (`readsOpenByCreation`). A
 * separate `status in (…)` beside it would do that too, but PostgreSQL would count it as a
 * second, independent condition and expect a fiftieth of the rows.
 */
function statusLiteral(status: TicketStatus): SQL {
  if (!storedStatuses.includes(status)) throw new Error(`not a stored status: ${status}`);
  return sql.raw(`'${status}'`);
}

/** The branch's statuses; `literal` writes them into the statement (`statusLiteral`). */
export function statusCondition(
  statuses: StatusPart[] | null,
  keys: PageKeys,
  literal = false,
): SQL | undefined {
  if (!statuses) return undefined;
  const isStatus = (status: TicketStatus) =>
    sql`${keys.status} = ${literal ? statusLiteral(status) : status}`;
  const expired = sql`${keys.expiresAt} <= now()`;
  const conditions = statuses.map((part) =>
    part.expiredOnly ? and(isStatus(part.status), expired) : isStatus(part.status),
  );
  return conditions.length === 1 ? conditions[0] : or(...conditions);
}

/** Customer info: an e-mail address, a phone number or a name, judged by what was typed. */
function customerInfoCondition(value: string): SQL {
  if (value.includes('@')) return sql`lower(${tickets.customerEmail}) like ${containsPattern(value)}`;
  const phone = phonePatternOf(value);
  if (phone) return sql`${tickets.customerPhone} like ${phone}`;
  return sql`lower(${tickets.customerName}) like ${containsPattern(value)}`;
}

const valueList = (values: ReadonlyArray<unknown>) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

const textArray = (values: string[]) => sql`array[${valueList(values)}]::text[]`;

/** `column in (values)` over a rendered column; the values go as the driver sends them. */
const isAnyOf = (column: StringChunk, values: ReadonlyArray<unknown>) =>
  sql`${column} in (${valueList(values)})`;

/** A filter's date as the timestamptz column would send it (ISO, UTC). */
export const instant = (value: string): string => new Date(value).toISOString();

/** Every filter field of core-inbox §3 that does not decide the branch, but the keyword. */
export function fieldConditions(request: TicketPageRequest): SQL[] {
  const { filter } = request;
  const conditions: SQL[] = [];
  const add = (condition: SQL | undefined) => {
    if (condition) conditions.push(condition);
  };
  if (filter.customerInfo) add(customerInfoCondition(filter.customerInfo));
  const column = ticketColumn();
  // Channel and agent from the page's own keys: by activity, the activity row's (0037).
  const keys = pageKeysOf(request.sort);
  if (filter.tags?.length) add(sql`${column.tags} && ${textArray(filter.tags)}`);
  if (filter.createdFrom) add(sql`${column.createdAt} >= ${instant(filter.createdFrom)}`);
  if (filter.createdTo) add(sql`${column.createdAt} <= ${instant(filter.createdTo)}`);
  if (filter.closedFrom) add(sql`${column.closedAt} >= ${instant(filter.closedFrom)}`);
  if (filter.closedTo) add(sql`${column.closedAt} <= ${instant(filter.closedTo)}`);
  if (filter.remarksOrSubject) {
    const pattern = containsPattern(filter.remarksOrSubject);
    add(sql`(lower(${column.remarks}) like ${pattern} or lower(${column.subject}) like ${pattern})`);
  }
  if (filter.mediaPlatform?.length) add(isAnyOf(keys.channel, filter.mediaPlatform));
  if (filter.csId?.length) add(isAnyOf(keys.assigneeId, filter.csId));
  if (filter.closedBy?.length) add(isAnyOf(column.closedBy, filter.closedBy));
  if (filter.createdBy?.length) add(isAnyOf(column.createdBy, filter.createdBy));
  if (filter.csGroup?.length) add(isAnyOf(column.groupId, filter.csGroup));
  if (filter.priority?.length) add(isAnyOf(column.priority, filter.priority));
  if (filter.categoryId) add(sql`${column.categoryId} = ${filter.categoryId}`);
  return conditions;
}

/**
 * Every filter field of core-inbox §3 that does not decide the branch, and apart from them
 * the keyword's condition (which may widen when a page comes out short).
 */
export async function filterConditions(
  tx: Executor,
  request: TicketPageRequest,
): Promise<{ conditions: SQL[]; keyword: KeywordMatch | null }> {
  const { filter, after } = request;
  const clientId = request.scope.clientId;
  const conditions = fieldConditions(request);
  if (!filter.keyword) return { conditions, keyword: null };
  // Newest created first, the page's days run from the cursor (or the filter's end) back.
  const created: CreatedRange | null =
    request.sort === 'createdAt'
      ? {
          newest: sql`least(${after?.key ?? null}::timestamptz, ${filter.createdTo ?? null}::timestamptz)`,
          oldest: filter.createdFrom ?? null,
        }
      : null;
  const keyword = await keywordCondition(
    tx,
    clientId,
    filter.keyword,
    {
      cap: request.keywordIdCap ?? keywordIdCap,
      denseFrom: request.keywordDenseFrom ?? keywordDenseFrom,
      pageRows: request.limit,
      exact: showsEveryMatch(request, conditions),
    },
    created,
  );
  return { conditions, keyword };
}

/**
 * Whether the page shows every ticket of its creation range that its keyword matches: it reads
 * every ticket (one branch of all statuses, not only the caller's own) and none of the filter's
 * `conditions` but the creation range's own drops any (KeywordPlan.exact).
 */
export function showsEveryMatch(request: TicketPageRequest, conditions: readonly SQL[]): boolean {
  const [only, ...others] = planBranches(request);
  const readsEveryTicket = others.length === 0 && only?.statuses === null && !only.assigneeIsMe;
  const rangeBounds = (request.filter.createdFrom ? 1 : 0) + (request.filter.createdTo ? 1 : 0);
  return readsEveryTicket && conditions.length === rangeBounds;
}

/**
 * Filters that no index of tickets answers: every plan of the page walks its branches' index
 * ranges in order and tests these on each ticket, whatever their values. A page filtered by
 * these alone (or by none: the inbox's tabs, the table's default) has one plan for all its
 * values, which PostgreSQL then makes once per connection (`withGenericPlan`). So has a page
 * newest created first with a creation date range: the range bounds the very index the page
 * reads in order. The others (customer info, tags, agent, closing dates, creation dates by
 * activity, keyword) have an index of their own that a rare value or a short range makes
 * worth reading, so those pages are planned for their values on every run.
 */
const filtersWithoutIndex: ReadonlySet<keyof TicketFilter> = new Set<keyof TicketFilter>([
  'tab',
  'status',
  'mediaPlatform',
  'priority',
  'remarksOrSubject',
  'closedBy',
  'createdBy',
  'csGroup',
  'categoryId',
]);

/** The creation date range: an index condition of the page's own index when it is read newest created first. */
const createdRange: ReadonlySet<keyof TicketFilter> = new Set<keyof TicketFilter>([
  'createdFrom',
  'createdTo',
]);

/** Whether a page with this filter and sort has one plan for all its values (see `filtersWithoutIndex`). */
export function hasPlanOfItsOwn(filter: TicketFilter, sort: TicketSort): boolean {
  return Object.entries(filter).every(
    ([field, value]) =>
      value === undefined ||
      value === '' ||
      (Array.isArray(value) && value.length === 0) ||
      filtersWithoutIndex.has(field as keyof TicketFilter) ||
      (sort === 'createdAt' && createdRange.has(field as keyof TicketFilter)),
  );
}
