import type { TicketFilterQuery, TicketStatus } from '@app/contracts';
import { and, eq, getTableColumns, inArray, or, type SQL, type StringChunk, sql } from 'drizzle-orm';
import { builtOnce, renderedColumns, renderedOnce } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { ticketCounters, tickets } from '../../db/schema';
import { withGenericPlan } from '../../db/tenant-connections';
import type { InboxScope } from './inbox.policy';
import { ticketSummaryJson } from './json-views';
import type { TicketRow } from './ticket.presenter';
import {
  type CreatedRange,
  containsPattern,
  digitsOf,
  type KeywordMatch,
  keywordCondition,
  keywordDenseFrom,
  keywordIdCap,
  looksLikePhone,
  nothingMatches,
} from './ticket-keyword';

/**
 * The inbox's read side: the ticket list with every filter, keyset pages and the tab
 * counters. Written for one client with a million tickets: every page is read from a
 * tickets_* btree in sort order and stops after `limit` rows; nothing counts over tickets.
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

export interface TicketPageRow {
  ticket: TicketRow;
  /** The row's sort value as exact PostgreSQL text (microseconds kept) for the next cursor. */
  sortKey: string;
  /** The tab counters, when the request asked for them. */
  counters?: TicketCounters;
}

export interface TicketCounters {
  all: number;
  unassigned: number;
  mine: number;
}

const storedStatuses: readonly TicketStatus[] = ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'];

/** A stored status, and whether only its expired tickets are wanted. */
interface StatusPart {
  status: TicketStatus;
  expiredOnly: boolean;
}

/** One part of the page, read from one index range: some statuses (null: all), maybe only mine. */
interface Branch {
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
 * - only the caller's own chats: one part on tickets_client_assignee_activity_idx;
 * - every status alike, newest created first: one part on tickets_client_created_idx;
 * - otherwise one part per status on tickets_client_status_* (and, by activity, one for the
 *   caller's own chats on the assignee index), merged from short index ranges.
 * Parts are disjoint by status, so their UNION ALL never repeats a row.
 */
function planBranches(request: TicketPageRequest): Branch[] {
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
const ticketColumn = renderedColumns(tickets);

const isStatus = (status: TicketStatus) => sql`${ticketColumn().status} = ${status}`;

function statusCondition(statuses: StatusPart[] | null): SQL | undefined {
  if (!statuses) return undefined;
  const expired = sql`${ticketColumn().expiresAt} <= now()`;
  const conditions = statuses.map((part) =>
    part.expiredOnly ? and(isStatus(part.status), expired) : isStatus(part.status),
  );
  return conditions.length === 1 ? conditions[0] : or(...conditions);
}

/** Customer info: an e-mail address, a phone number or a name, judged by what was typed. */
function customerInfoCondition(value: string): SQL {
  if (value.includes('@')) return sql`lower(${tickets.customerEmail}) like ${containsPattern(value)}`;
  if (looksLikePhone(value)) return sql`${tickets.customerPhone} like ${containsPattern(digitsOf(value))}`;
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

/**
 * Every filter field of core-inbox §3 that does not decide the branch, and apart from them
 * the keyword's condition (which may widen when a page comes out short).
 */
async function filterConditions(
  tx: Executor,
  request: TicketPageRequest,
): Promise<{ conditions: SQL[]; keyword: KeywordMatch | null }> {
  const { filter, after } = request;
  const clientId = request.scope.clientId;
  const conditions: SQL[] = [];
  const add = (condition: SQL | undefined) => {
    if (condition) conditions.push(condition);
  };
  if (filter.customerInfo) add(customerInfoCondition(filter.customerInfo));
  const column = ticketColumn();
  // A date goes as the timestamptz column would send it (ISO, UTC).
  const instant = (value: string) => new Date(value).toISOString();
  if (filter.tags?.length) add(sql`${column.tags} && ${textArray(filter.tags)}`);
  if (filter.createdFrom) add(sql`${column.createdAt} >= ${instant(filter.createdFrom)}`);
  if (filter.createdTo) add(sql`${column.createdAt} <= ${instant(filter.createdTo)}`);
  if (filter.closedFrom) add(sql`${column.closedAt} >= ${instant(filter.closedFrom)}`);
  if (filter.closedTo) add(sql`${column.closedAt} <= ${instant(filter.closedTo)}`);
  if (filter.remarksOrSubject) {
    const pattern = containsPattern(filter.remarksOrSubject);
    add(sql`(lower(${column.remarks}) like ${pattern} or lower(${column.subject}) like ${pattern})`);
  }
  if (filter.mediaPlatform?.length) add(isAnyOf(column.channel, filter.mediaPlatform));
  if (filter.csId?.length) add(isAnyOf(column.assigneeId, filter.csId));
  if (filter.closedBy?.length) add(isAnyOf(column.closedBy, filter.closedBy));
  if (filter.createdBy?.length) add(isAnyOf(column.createdBy, filter.createdBy));
  if (filter.csGroup?.length) add(isAnyOf(column.groupId, filter.csGroup));
  if (filter.priority?.length) add(isAnyOf(column.priority, filter.priority));
  if (filter.categoryId) add(sql`${column.categoryId} = ${filter.categoryId}`);
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
    },
    created,
  );
  return { conditions, keyword };
}

const sortKeyOf = { createdAt: 'createdAt', lastMessageAt: 'lastMessageAt' } as const satisfies Record<
  TicketSort,
  keyof typeof tickets._.columns
>;
const sortColumnOf = (sort: TicketSort) => tickets[sortKeyOf[sort]];

/** Newest first; NULLS LAST spelled out so the order is exactly the indexes' order. */
const pageOrder: Record<TicketSort, () => SQL> = {
  createdAt: renderedOnce(() => sql`${tickets.createdAt} desc nulls last, ${tickets.id} desc nulls last`),
  lastMessageAt: renderedOnce(
    () => sql`${tickets.lastMessageAt} desc nulls last, ${tickets.id} desc nulls last`,
  ),
};

/** The page's sort key as text (`sort_key`), for the keyset cursor. */
const sortKeyColumn: Record<TicketSort, () => SQL> = {
  createdAt: renderedOnce(() => sql`${tickets.createdAt}::text as sort_key`),
  lastMessageAt: renderedOnce(() => sql`${tickets.lastMessageAt}::text as sort_key`),
};
const fromTickets = renderedOnce(() => sql`from ${tickets}`);

/** The same order over the union of the branches, whose columns are no longer the table's. */
const unionOrder = (sort: TicketSort): SQL =>
  sql.raw(`"${sortColumnOf(sort).name}" desc nulls last, "id" desc nulls last`);

/**
 * One page of tickets, newest first by the sort column, after the keyset position. The
 * branches are read as `(… order by … limit n) union all (…)`, which PostgreSQL runs as
 * a Merge Append of index scans that each stop after n rows.
 */
export async function findTicketPage(tx: Executor, request: TicketPageRequest): Promise<TicketPageRow[]> {
  const raw = await ticketPageRows(tx, request, ticketColumnList());
  const toTicket = rowMapperOf(tickets);
  const counters = countersOf(raw);
  return raw.map((row) => ({
    ticket: toTicket(row),
    sortKey: row.sort_key as string,
    ...(counters ? { counters } : {}),
  }));
}

/** A row of `findTicketPageJson`: the ticket as `TicketSummary` JSON text (json-views.ts). */
export interface TicketPageJsonRow {
  id: number;
  view: string;
  sortKey: string;
  counters?: TicketCounters;
}

/** The same page as `findTicketPage`, each ticket written as JSON by PostgreSQL (the lists' answers). */
export async function findTicketPageJson(
  tx: Executor,
  request: TicketPageRequest,
): Promise<TicketPageJsonRow[]> {
  const raw = await ticketPageRows(tx, request, ticketJsonColumns[request.sort]());
  const counters = countersOf(raw);
  return raw.map((row) => ({
    id: Number(row.id),
    view: row.view as string,
    sortKey: row.sort_key as string,
    ...(counters ? { counters } : {}),
  }));
}

/**
 * A page as one row: its tickets' JSON joined by commas in order (`views`, the row read past
 * the page left out), how many rows were read (`n`: one more than the page when another
 * follows), the page's last sort key and id for the cursor, and the counters when asked for.
 * The driver then reads one text value instead of a row a ticket: reading 51 rows was a quarter
 * to a third of the server's CPU for a list page, and PostgreSQL does the same work either way.
 */
export interface TicketPageText {
  /** Rows read, up to `limit` (the page size and one). */
  count: number;
  /** The page's `TicketSummary` objects joined by commas, without brackets; '' when empty. */
  views: string;
  /** Where the page ended, when it is full. */
  last: KeysetPosition | null;
  counters?: TicketCounters;
}

/** The page `request` asks for, as `TicketPageText` (`limit` is the page size and one). */
export async function findTicketPageText(tx: Executor, request: TicketPageRequest): Promise<TicketPageText> {
  const [row] = await ticketPageRows(tx, request, ticketJsonColumns[request.sort](), true);
  if (!row) return { count: 0, views: '', last: null };
  const counters = countersOf([row]);
  return {
    count: Number(row.n),
    views: (row.views as string | null) ?? '',
    last: row.last_key === null ? null : { key: row.last_key as string, id: Number(row.last_id) },
    ...(counters ? { counters } : {}),
  };
}

/**
 * Wraps a page statement so that it answers `TicketPageText`'s one row. The rows come in the
 * page's order from the statement's own `order by … limit`, which the numbering keeps without
 * sorting again; the join is ordered by that number all the same.
 */
function joinedPage(statement: SQL, sort: TicketSort, limit: number, counters: SQL): SQL {
  const pageSize = limit - 1;
  return sql`select count(*) as n,
    string_agg(page_row.view, ',' order by page_row.ord) filter (where page_row.ord <= ${pageSize}) as views,
    max(page_row.sort_key) filter (where page_row.ord = ${pageSize}) as last_key,
    max(page_row.id) filter (where page_row.ord = ${pageSize}) as last_id${counters}
    from (select page.*, row_number() over (order by ${unionOrder(sort)}) as ord from (${statement}) page) page_row`;
}

/**
 * The counters a page read beside its rows: the same on every row, sent as text so that the
 * driver does not parse them once a row; parsed here once.
 */
function countersOf(rows: Record<string, unknown>[]): TicketCounters | undefined {
  const text = rows[0]?.tab_counters;
  return typeof text === 'string' ? (JSON.parse(text) as TicketCounters) : undefined;
}

/**
 * The page's rows with `columns` (which must include the id and the sort column), its sort key
 * and counters; or, `joined`, the one row `joinedPage` makes of them.
 */
async function ticketPageRows(
  tx: Executor,
  request: TicketPageRequest,
  columns: SQL,
  joined = false,
): Promise<Record<string, unknown>[]> {
  const { scope, sort, after, limit } = request;
  const branches = planBranches(request);
  if (branches.length === 0) return [];
  const column = ticketColumn();
  const sortColumn = column[sortKeyOf[sort]];
  const { conditions, keyword } = await filterConditions(tx, request);
  const common = [sql`${column.clientId} = ${scope.clientId}`, ...conditions];
  if (after) {
    common.push(sql`(${sortColumn}, ${column.id}) < (${after.key}::timestamptz, ${after.id})`);
  }
  // An uncorrelated subquery: PostgreSQL reads the counters once per branch, and the page
  // costs one round trip fewer than reading them apart.
  const counters = request.withCounters
    ? sql`, ${countersSubquery({ clientId: scope.clientId, mine: `user:${scope.userId}` })}::text as tab_counters`
    : sql``;
  // A joined page reads the counters once, beside the rows it joins.
  const branchCounters = joined ? sql`` : counters;
  const order = pageOrder[sort]();
  const head = sortKeyColumn[sort]();
  const statementOf = (where: SQL[]) => {
    const query = (branch: Branch) => {
      const conditions = and(
        ...where,
        statusCondition(branch.statuses),
        branch.assigneeIsMe ? sql`${column.assigneeId} = ${scope.userId}` : undefined,
      );
      return sql`select ${columns}, ${head}${branchCounters} ${fromTickets()} where ${conditions} order by ${order} limit ${limit}`;
    };
    const parts = branches.map(query);
    return parts.length > 1
      ? sql`${sql.join(
          parts.map((part) => sql`(${part})`),
          sql` union all `,
        )} order by ${unionOrder(sort)} limit ${limit}`
      : parts[0];
  };
  const ownPlan = hasPlanOfItsOwn(request.filter, sort);
  // A keyword read by day gives the matches of the days a page needs; a page that comes out
  // short (other filters passed over some) asks it again over more days.
  let match = keyword;
  for (;;) {
    const where = match ? [...common, match.condition] : common;
    if (where.includes(nothingMatches)) return [];
    const statement = joined ? joinedPage(statementOf(where), sort, limit, counters) : statementOf(where);
    const rows = await rawRowsOf(tx, ownPlan ? withGenericPlan(statement) : statement);
    const count = joined ? Number(rows[0]?.n ?? 0) : rows.length;
    if (count >= limit || !match?.wider) return rows;
    match = await match.wider();
  }
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

/**
 * Every column of `tickets`, rendered once: Drizzle's select builder names, aliases and
 * checks each of the 28 columns again on every page (and every branch of one).
 */
const ticketColumnList = renderedOnce(() =>
  sql.join(
    Object.values(getTableColumns(tickets)).map((column) => sql`${column}`),
    sql`, `,
  ),
);

/** The JSON page's columns per sort (id, the sort column for the union's order, the row as JSON), rendered once. */
const ticketJsonColumns: Record<TicketSort, () => SQL> = {
  createdAt: renderedOnce(() => sql`${tickets.id}, ${tickets.createdAt}, ${ticketSummaryJson} as view`),
  lastMessageAt: renderedOnce(
    () => sql`${tickets.id}, ${tickets.lastMessageAt}, ${ticketSummaryJson} as view`,
  ),
};

/** The counters as one json object `{ all, unassigned, mine }`, for a page's own statement; `mine` is `user:<id>`. */
const countersSubquery = builtOnce<{ clientId: string; mine: string }>(
  () => sql`(select json_build_object(
      'all', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = 'all'), 0),
      'unassigned', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = 'unassigned'), 0),
      'mine', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = ${sql.placeholder('mine')}), 0))
    from ${ticketCounters}
    where ${ticketCounters.clientId} = ${sql.placeholder('clientId')} and ${ticketCounters.scope} in ('all', 'unassigned', ${sql.placeholder('mine')}))`,
);

/** The open-ticket counters the trigger keeps (migration 0004): all, unassigned, and the user's. */
export async function findTicketCounters(
  tx: Executor,
  clientId: string,
  userId: string,
): Promise<TicketCounters> {
  const mineScope = `user:${userId}`;
  const rows = await tx
    .select({ scope: ticketCounters.scope, count: ticketCounters.count })
    .from(ticketCounters)
    .where(
      and(
        eq(ticketCounters.clientId, clientId),
        inArray(ticketCounters.scope, ['all', 'unassigned', mineScope]),
      ),
    );
  const countOf = (scope: string) => rows.find((row) => row.scope === scope)?.count ?? 0;
  return { all: countOf('all'), unassigned: countOf('unassigned'), mine: countOf(mineScope) };
}
