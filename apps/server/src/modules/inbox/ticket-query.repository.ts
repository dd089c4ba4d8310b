import type { TicketFilterQuery, TicketStatus } from '@app/contracts';
import { and, eq, getTableColumns, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { renderedOnce } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { messages, ticketCounters, ticketSearch, tickets } from '../../db/schema';
import { withGenericPlan } from '../../db/tenant-connections';
import type { InboxScope } from './inbox.policy';
import { ticketSummaryJson } from './json-views';
import type { TicketRow } from './ticket.presenter';

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

function statusCondition(statuses: StatusPart[] | null): SQL | undefined {
  if (!statuses) return undefined;
  const expired = sql`${tickets.expiresAt} <= now()`;
  const conditions = statuses.map((part) =>
    part.expiredOnly ? and(eq(tickets.status, part.status), expired) : eq(tickets.status, part.status),
  );
  return conditions.length === 1 ? conditions[0] : or(...conditions);
}

/** Escapes LIKE wildcards so the user's text matches literally, then wraps it for a substring match. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');
const looksLikePhone = (text: string) => /^\+?[\d\s().-]+$/.test(text) && digitsOf(text).length >= 3;

/** The full-text query of a keyword, the configuration of ticket_search.words. */
export const keywordQuery = (keyword: string): SQL => sql`websearch_to_tsquery('simple', ${keyword})`;

/** Messages of the client that match the keyword (read per ticket, for the snippets). */
export const messageMatches = (clientId: string, keyword: string): SQL =>
  sql`${messages.clientId} = ${clientId} and to_tsvector('simple', ${messages.text}) @@ ${keywordQuery(keyword)}`;

/** A condition no ticket meets: the page is empty without asking the database. */
const nothingMatches = sql`false`;

/**
 * Past this many matching tickets a keyword counts as common: walking the page's index and
 * testing each ticket's words finds a page of hits sooner than fetching and sorting every
 * match. Below it the matches come straight from the indexes.
 */
export const keywordIdCap = 5000;

/** How many common keywords the process remembers, and for how long. */
const commonKeywordsKept = 1000;
const commonKeywordMs = 10 * 60_000;
/** Keywords found common, by client, cap and keyword: when each was found so. */
const commonKeywords = new Map<string, number>();
const commonKeywordKey = (clientId: string, keyword: string, cap: number) =>
  `${clientId}\u0000${cap}\u0000${keyword}`;

/**
 * Whether the keyword was lately found common for the client (past the cap). Matches only
 * grow as messages arrive, so the verdict stays true, and should it not (messages removed)
 * the walk still finds the right page, only slower. Remembering it spares the probe that reads
 * the cap's worth of matches to learn it again: 7–19 ms of PostgreSQL's time for each search
 * of a common word at a million tickets.
 */
export function isKnownCommonKeyword(clientId: string, keyword: string, cap: number): boolean {
  const key = commonKeywordKey(clientId, keyword, cap);
  const foundAt = commonKeywords.get(key);
  if (foundAt === undefined) return false;
  if (Date.now() - foundAt > commonKeywordMs) {
    commonKeywords.delete(key);
    return false;
  }
  return true;
}

function rememberCommonKeyword(clientId: string, keyword: string, cap: number): void {
  const key = commonKeywordKey(clientId, keyword, cap);
  commonKeywords.delete(key);
  commonKeywords.set(key, Date.now());
  if (commonKeywords.size > commonKeywordsKept) {
    commonKeywords.delete(commonKeywords.keys().next().value as string);
  }
}

/**
 * The keyword: a customer name or phone number containing it, or words of the ticket's
 * messages matching it (one of the ticket's ticket_search parts, kept by a trigger; migrations
 * 0013 and 0018).
 * inbox_keyword_ticket_ids reads the GIN and trigram indexes that row-level security keeps
 * the planner from using, for the transaction's own client, and gives up past the cap:
 * a rare keyword becomes a list of ids, a common one a test made on each ticket of the walk.
 */
async function keywordCondition(tx: Executor, clientId: string, keyword: string, cap: number): Promise<SQL> {
  const digits = digitsOf(keyword);
  const namePattern = containsPattern(keyword);
  const phonePattern = digits.length >= 3 ? containsPattern(digits) : null;
  // The words carry no positions: a "quoted phrase" is looked up as its words, then
  // confirmed on the messages themselves.
  const wordsOnly = keyword.replaceAll('"', ' ');
  let found: Array<string | number> | null = null;
  if (!isKnownCommonKeyword(clientId, keyword, cap)) {
    // Past the cap only "common" comes back, not the cap's worth of ids.
    const result = (await tx.execute(
      sql`select case when count(*) > ${cap} then null else coalesce(array_agg(id), '{}') end as ids
            from inbox_keyword_ticket_ids(${clientId}, ${wordsOnly}, ${namePattern}, ${phonePattern}, ${cap}) as id`,
    )) as unknown as { rows: Array<{ ids: Array<string | number> | null }> };
    found = result.rows[0]?.ids ?? null;
    if (found === null) rememberCommonKeyword(clientId, keyword, cap);
  }
  const common = found === null;
  const ids = found === null ? [] : [...new Set(found.map(Number))];
  const phone = phonePattern ? sql` or ${tickets.customerPhone} like ${phonePattern}` : sql``;
  const customer = sql`lower(${tickets.customerName}) like ${namePattern}${phone}`;
  const quoted = keyword.includes('"');
  const phrase = quoted
    ? sql` and exists (select 1 from ${messages} where ${messages.ticketId} = ${tickets.id} and ${messageMatches(clientId, keyword)})`
    : sql``;
  // A scalar subquery (the first of the ticket's parts that matches), so that it is tested on
  // each ticket of the walk: as EXISTS inside an OR the planner may hash every ticket's words first.
  const matchesWords = sql`coalesce((select true from ${ticketSearch} where ${ticketSearch.ticketId} = ${tickets.id} and ${ticketSearch.words} @@ ${keywordQuery(wordsOnly)} limit 1), false)`;
  const words = sql`(${matchesWords}${phrase})`;
  if (!common) {
    if (ids.length === 0) return nothingMatches;
    const candidates = sql`${tickets.id} = any(${`{${ids.join(',')}}`}::bigint[])`;
    // The ids are the keyword's matches as they are; only a phrase is then confirmed on the messages.
    return quoted ? sql`(${candidates} and (${words} or ${customer}))` : candidates;
  }
  return sql`(${words} or ${customer})`;
}

/** Customer info: an e-mail address, a phone number or a name, judged by what was typed. */
function customerInfoCondition(value: string): SQL {
  if (value.includes('@')) return sql`lower(${tickets.customerEmail}) like ${containsPattern(value)}`;
  if (looksLikePhone(value)) return sql`${tickets.customerPhone} like ${containsPattern(digitsOf(value))}`;
  return sql`lower(${tickets.customerName}) like ${containsPattern(value)}`;
}

const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

/** Every filter field of core-inbox §3 that does not decide the branch. */
async function filterConditions(
  tx: Executor,
  clientId: string,
  filter: TicketFilter,
  keywordCap: number,
): Promise<SQL[]> {
  const conditions: SQL[] = [];
  const add = (condition: SQL | undefined) => {
    if (condition) conditions.push(condition);
  };
  if (filter.customerInfo) add(customerInfoCondition(filter.customerInfo));
  if (filter.tags?.length) add(sql`${tickets.tags} && ${textArray(filter.tags)}`);
  if (filter.createdFrom) add(gte(tickets.createdAt, new Date(filter.createdFrom)));
  if (filter.createdTo) add(lte(tickets.createdAt, new Date(filter.createdTo)));
  if (filter.closedFrom) add(gte(tickets.closedAt, new Date(filter.closedFrom)));
  if (filter.closedTo) add(lte(tickets.closedAt, new Date(filter.closedTo)));
  if (filter.remarksOrSubject) {
    const pattern = containsPattern(filter.remarksOrSubject);
    add(sql`(lower(${tickets.remarks}) like ${pattern} or lower(${tickets.subject}) like ${pattern})`);
  }
  if (filter.mediaPlatform?.length) add(inArray(tickets.channel, filter.mediaPlatform));
  if (filter.csId?.length) add(inArray(tickets.assigneeId, filter.csId));
  if (filter.closedBy?.length) add(inArray(tickets.closedBy, filter.closedBy));
  if (filter.createdBy?.length) add(inArray(tickets.createdBy, filter.createdBy));
  if (filter.csGroup?.length) add(inArray(tickets.groupId, filter.csGroup));
  if (filter.priority?.length) add(inArray(tickets.priority, filter.priority));
  if (filter.categoryId) add(eq(tickets.categoryId, filter.categoryId));
  if (filter.keyword) add(await keywordCondition(tx, clientId, filter.keyword, keywordCap));
  return conditions;
}

const sortColumnOf = (sort: TicketSort) => (sort === 'createdAt' ? tickets.createdAt : tickets.lastMessageAt);

/** Newest first; NULLS LAST spelled out so the order is exactly the indexes' order. */
const pageOrder = (sort: TicketSort): SQL[] => [
  sql`${sortColumnOf(sort)} desc nulls last`,
  sql`${tickets.id} desc nulls last`,
];

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
  return raw.map((row) => ({
    ticket: toTicket(row),
    sortKey: row.sort_key as string,
    ...(request.withCounters ? { counters: row.tab_counters as TicketCounters } : {}),
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
  return raw.map((row) => ({
    id: Number(row.id),
    view: row.view as string,
    sortKey: row.sort_key as string,
    ...(request.withCounters ? { counters: row.tab_counters as TicketCounters } : {}),
  }));
}

/** The page's rows with `columns` (which must include the id and the sort column), its sort key and counters. */
async function ticketPageRows(
  tx: Executor,
  request: TicketPageRequest,
  columns: SQL,
): Promise<Record<string, unknown>[]> {
  const { scope, sort, after, limit } = request;
  const branches = planBranches(request);
  if (branches.length === 0) return [];
  const sortColumn = sortColumnOf(sort);
  const common = [
    eq(tickets.clientId, scope.clientId),
    ...(await filterConditions(tx, scope.clientId, request.filter, request.keywordIdCap ?? keywordIdCap)),
  ];
  if (common.includes(nothingMatches)) return [];
  if (after) {
    common.push(sql`(${sortColumn}, ${tickets.id}) < (${after.key}::timestamptz, ${after.id})`);
  }
  // An uncorrelated subquery: PostgreSQL reads the counters once per branch, and the page
  // costs one round trip fewer than reading them apart.
  const counters = request.withCounters
    ? sql`, ${countersSubquery(scope.clientId, scope.userId)} as tab_counters`
    : sql``;
  const order = sql.join(pageOrder(sort), sql`, `);
  const query = (branch: Branch) => {
    const where = and(
      ...common,
      statusCondition(branch.statuses),
      branch.assigneeIsMe ? eq(tickets.assigneeId, scope.userId) : undefined,
    );
    return sql`select ${columns}, ${sortColumn}::text as sort_key${counters} from ${tickets} where ${where} order by ${order} limit ${limit}`;
  };
  const parts = branches.map(query);
  const statement =
    parts.length > 1
      ? sql`${sql.join(
          parts.map((part) => sql`(${part})`),
          sql` union all `,
        )} order by ${unionOrder(sort)} limit ${limit}`
      : parts[0];
  return rawRowsOf(tx, hasPlanOfItsOwn(request.filter, sort) ? withGenericPlan(statement) : statement);
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

/** The counters as one json object `{ all, unassigned, mine }`, for a page's own statement. */
function countersSubquery(clientId: string, userId: string) {
  const mine = `user:${userId}`;
  return sql<TicketCounters>`(select json_build_object(
      'all', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = 'all'), 0),
      'unassigned', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = 'unassigned'), 0),
      'mine', coalesce(sum(${ticketCounters.count}) filter (where ${ticketCounters.scope} = ${mine}), 0))
    from ${ticketCounters}
    where ${ticketCounters.clientId} = ${clientId} and ${ticketCounters.scope} in ('all', 'unassigned', ${mine}))`;
}

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
