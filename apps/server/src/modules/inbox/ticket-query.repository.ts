import { type AnyColumn, and, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import { builtOnce, renderedOnce } from '../../db/built-once';
import type { Executor } from '../../db/client';
import { rawRowsOf, rowMapperOf } from '../../db/json-row';
import { ticketActivity, ticketCounters, tickets } from '../../db/schema';
import { withGenericPlan } from '../../db/tenant-connections';
import { ticketSummaryJson } from './json-views';
import type { TicketRow } from './ticket.presenter';
import { counterSum } from './ticket.repository';
import {
  type Branch,
  filterConditions,
  hasPlanOfItsOwn,
  instant,
  type KeysetPosition,
  openByCreationKeysOf,
  type PageKeys,
  pageKeysOf,
  planBranches,
  readsOpenByCreation,
  statusCondition,
  type TicketPageRequest,
  type TicketSort,
} from './ticket-conditions';
import { nothingMatches } from './ticket-keyword';

export type { KeysetPosition, TicketFilter, TicketPageRequest, TicketSort } from './ticket-conditions';

/**
 * The inbox's read side: the ticket list with every filter, keyset pages and the tab
 * counters. Written for one client with a million tickets: every page is read from a btree
 * in sort order (tickets_* by creation, ticket_activity_* by activity, migration 0034) and
 * stops after `limit` rows; nothing counts over tickets.
 */

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

const sortKeyOf = { createdAt: 'createdAt', lastMessageAt: 'lastMessageAt' } as const satisfies Record<
  TicketSort,
  keyof typeof tickets._.columns
>;
const sortColumnOf = (sort: TicketSort) => tickets[sortKeyOf[sort]];

/**
 * Where a branch reads its index range: tickets' own indexes by creation; ticket_activity's by
 * activity (0034); or, by creation, the activity's open chats for expired ones only (0043,
 * `readsOpenByCreation`). From the activity a branch joins each ticket it keeps by id.
 */
type BranchSource = 'tickets' | 'activity' | 'openByCreation';

function sourceOf(sort: TicketSort, branch: Branch): BranchSource {
  if (sort === 'lastMessageAt') return 'activity';
  return readsOpenByCreation(sort, branch) ? 'openByCreation' : 'tickets';
}

const keysOfSource: Record<BranchSource, () => PageKeys> = {
  tickets: () => pageKeysOf('createdAt'),
  activity: () => pageKeysOf('lastMessageAt'),
  openByCreation: openByCreationKeysOf,
};

/** Newest first by the branch's keys; NULLS LAST spelled out so the order is exactly the indexes' order. */
const pageOrder = (keys: PageKeys): SQL => sql`${keys.sort} desc nulls last, ${keys.id} desc nulls last`;

/** The page's sort key as text (`sort_key`), for the keyset cursor. */
const sortKeyColumn = (keys: PageKeys): SQL => sql`${keys.sort}::text as sort_key`;

const fromActivity = renderedOnce(
  () => sql`from ${ticketActivity} join ${tickets} on ${tickets.id} = ${ticketActivity.id}`,
);

const pageFrom: Record<BranchSource, () => SQL> = {
  tickets: renderedOnce(() => sql`from ${tickets}`),
  activity: fromActivity,
  openByCreation: fromActivity,
};

/** The same order over the union of the branches, whose columns are no longer the table's. */
const unionOrder = (sort: TicketSort): SQL =>
  sql.raw(`"${sortColumnOf(sort).name}" desc nulls last, "id" desc nulls last`);

/**
 * One page of tickets, newest first by the sort column, after the keyset position. The
 * branches are read as `(… order by … limit n) union all (…)`, which PostgreSQL runs as
 * a Merge Append of index scans that each stop after n rows.
 */
export async function findTicketPage(tx: Executor, request: TicketPageRequest): Promise<TicketPageRow[]> {
  const raw = await ticketPageRows(tx, request, ticketColumnList);
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
  const raw = await ticketPageRows(tx, request, ticketJsonColumns);
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
  const [row] = await ticketPageRows(tx, request, ticketJsonColumns, true);
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
 * The page's rows with the columns of `columns` for each branch's source (which must include
 * the id and the sort column), its sort key and counters; or, `joined`, the one row
 * `joinedPage` makes of them.
 */
async function ticketPageRows(
  tx: Executor,
  request: TicketPageRequest,
  columns: Record<BranchSource, () => SQL>,
  joined = false,
): Promise<Record<string, unknown>[]> {
  const { scope, sort, after, limit } = request;
  const branches = planBranches(request);
  if (branches.length === 0) return [];
  const { conditions: common, keyword } = await filterConditions(tx, request);
  // Each branch is held to the client, and starts after the cursor, by its own index's keys.
  // From the activity the joined ticket is held to the client too, not only its activity row;
  // and by creation the activity's own copy of the creation range bounds its index range.
  const { createdFrom, createdTo } = request.filter;
  const keyConditions = (source: BranchSource, keys: PageKeys) => [
    sql`${keys.clientId} = ${scope.clientId}`,
    source === 'tickets' ? undefined : sql`${tickets.clientId} = ${scope.clientId}`,
    ...(source === 'openByCreation'
      ? [
          createdFrom ? sql`${keys.sort} >= ${instant(createdFrom)}` : undefined,
          createdTo ? sql`${keys.sort} <= ${instant(createdTo)}` : undefined,
        ]
      : []),
    after ? sql`(${keys.sort}, ${keys.id}) < (${after.key}::timestamptz, ${after.id})` : undefined,
  ];
  // An uncorrelated subquery: PostgreSQL reads the counters once per branch, and the page
  // costs one round trip fewer than reading them apart.
  const counters = request.withCounters
    ? sql`, ${countersSubquery({ clientId: scope.clientId, mine: `user:${scope.userId}` })}::text as tab_counters`
    : sql``;
  // A joined page reads the counters once, beside the rows it joins.
  const branchCounters = joined ? sql`` : counters;
  // The limit is written into the statement: a generic plan then knows that a branch stops
  // after a page, where a parameter is planned as a tenth of the index range. By activity
  // that guess priced joining thousands of tickets, and the plan sorted the branches' rows
  // in parallel workers (68 ms) instead of merging 51 of each in order (0.9 ms).
  const rowLimit = sql.raw(String(pageLimit(limit)));
  const statementOf = (where: SQL[]) => {
    const query = (branch: Branch) => {
      const source = sourceOf(sort, branch);
      const keys = keysOfSource[source]();
      const conditions = and(
        ...keyConditions(source, keys),
        ...where,
        statusCondition(branch.statuses, keys, source === 'openByCreation'),
        branch.assigneeIsMe ? sql`${keys.assigneeId} = ${scope.userId}` : undefined,
      );
      return sql`select ${columns[source]()}, ${sortKeyColumn(keys)}${branchCounters} ${pageFrom[source]()} where ${conditions} order by ${pageOrder(keys)} limit ${rowLimit}`;
    };
    const parts = branches.map(query);
    return parts.length > 1
      ? sql`${sql.join(
          parts.map((part) => sql`(${part})`),
          sql` union all `,
        )} order by ${unionOrder(sort)} limit ${rowLimit}`
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

/** A page's row limit, checked before it is written into a statement. */
function pageLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`not a page limit: ${limit}`);
  return limit;
}

/**
 * Every column of `tickets` per sort, rendered once: Drizzle's select builder names, aliases
 * and checks each of the 28 columns again on every page (and every branch of one). By activity
 * the id and `last_message_at` are the activity row's (the same values, kept by its triggers),
 * which each branch is ordered by: the union then merges the branches in that order instead
 * of sorting all their rows, as the JSON pages do.
 */
const ticketColumnList: Record<BranchSource, () => SQL> = {
  tickets: renderedOnce(() => columnsOfTickets({})),
  activity: renderedOnce(() =>
    columnsOfTickets({ id: ticketActivity.id, lastMessageAt: ticketActivity.lastMessageAt }),
  ),
  openByCreation: renderedOnce(() =>
    columnsOfTickets({ id: ticketActivity.id, createdAt: ticketActivity.createdAt }),
  ),
};

function columnsOfTickets(replaced: Partial<Record<keyof typeof tickets._.columns, AnyColumn>>): SQL {
  return sql.join(
    Object.entries(getTableColumns(tickets)).map(
      ([key, column]) => sql`${replaced[key as keyof typeof replaced] ?? column}`,
    ),
    sql`, `,
  );
}

/** The JSON page's columns per source (id, the sort column for the union's order, the row as JSON), rendered once. */
const ticketJsonColumns: Record<BranchSource, () => SQL> = {
  tickets: renderedOnce(() => sql`${tickets.id}, ${tickets.createdAt}, ${ticketSummaryJson} as view`),
  // The activity row's id and time, which the branch is ordered by: the union then merges the
  // branches in that order (a Merge Append) instead of sorting all their rows.
  activity: renderedOnce(
    () => sql`${ticketActivity.id}, ${ticketActivity.lastMessageAt}, ${ticketSummaryJson} as view`,
  ),
  openByCreation: renderedOnce(
    () => sql`${ticketActivity.id}, ${ticketActivity.createdAt}, ${ticketSummaryJson} as view`,
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
    .select({ scope: ticketCounters.scope, count: counterSum })
    .from(ticketCounters)
    .where(
      and(
        eq(ticketCounters.clientId, clientId),
        inArray(ticketCounters.scope, ['all', 'unassigned', mineScope]),
      ),
    )
    .groupBy(ticketCounters.scope);
  const countOf = (scope: string) => rows.find((row) => row.scope === scope)?.count ?? 0;
  return { all: countOf('all'), unassigned: countOf('unassigned'), mine: countOf(mineScope) };
}
