import type { TabCounts, TicketFilterQuery, TicketStatus } from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { readInTenant } from '../../db/tenant';
import { badRequest } from '../../platform/http/http-errors';
import { JsonText } from '../../platform/http/presented-response';
import type { InboxScope } from './inbox.policy';
import { catchUpSearchWords } from './ticket-keyword';
import {
  findTicketCounters,
  findTicketPage,
  findTicketPageJson,
  findTicketPageText,
  type KeysetPosition,
  type TicketPageJsonRow,
  type TicketPageRequest,
  type TicketPageRow,
} from './ticket-query.repository';

/** What every list shows when the filter names no status. */
export const listDefaults = {
  /** The inbox: conversations still open. */
  inbox: ['UNASSIGNED', 'ASSIGNED'],
  /** The ticket table and search: everything. */
  table: ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'],
} as const satisfies Record<string, readonly TicketStatus[]>;

export const invalidCursorMessage = 'Invalid cursor';

/** A timestamptz as PostgreSQL prints it, so a forged cursor is refused before it reaches SQL. */
const timestampText = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2}){0,2})?$/;

/** The opaque cursor: base64url of the last row's sort value and id. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): KeysetPosition | null {
  if (!cursor) return null;
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof key === 'string' && timestampText.test(key) && Number.isSafeInteger(id)) {
      return { key, id: id as number };
    }
  } catch {}
  throw badRequest(invalidCursorMessage);
}

/** One page of rows and where the next one starts (null at the end). */
export interface TicketPage {
  rows: TicketPageRow[];
  nextCursor: string | null;
}

/**
 * Tab counts from the counters only (never a count over tickets): an agent who does not
 * see every chat has "all" = their own + the queue they see.
 */
export function tabCountsOf(scope: InboxScope, counters: { all: number; unassigned: number; mine: number }) {
  const unassigned = scope.seesQueue ? counters.unassigned : 0;
  return {
    mine: counters.mine,
    unassigned,
    all: scope.seesAll ? counters.all : counters.mine + unassigned,
  } satisfies TabCounts;
}

/** The repository's request for one page of the query, reading one row more to know if another follows. */
function pageRequestOf(
  scope: InboxScope,
  query: TicketFilterQuery,
  defaultStatuses: readonly TicketStatus[],
  withCounters = false,
): TicketPageRequest {
  const { sort, cursor, pageSize, ...filter } = query;
  return {
    scope,
    filter,
    defaultStatuses,
    sort,
    after: decodeCursor(cursor),
    limit: pageSize + 1,
    withCounters,
  };
}

/**
 * A page from rows read one past its size: the rows it shows, and the cursor after the last
 * of them when another page follows.
 */
function keysetPageOf<Row extends { sortKey: string }>(
  rows: Row[],
  pageSize: number,
  idOf: (row: Row) => number,
): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= pageSize) return { rows, nextCursor: null };
  const last = rows[pageSize - 1];
  return { rows: rows.slice(0, pageSize), nextCursor: encodeCursor({ key: last.sortKey, id: idOf(last) }) };
}

/** The inbox's query side: lists, tab counts and the pages search and downloads read. */
export class TicketQueryService {
  constructor(private readonly db: Database) {}

  /**
   * A page of the inbox or the ticket table with the caller's tab counts, each ticket written
   * as JSON by PostgreSQL (json-views.ts) and the page joined there into one text.
   */
  async list(
    scope: InboxScope,
    query: TicketFilterQuery,
    defaultStatuses: readonly TicketStatus[],
  ): Promise<JsonText> {
    if (query.keyword) await catchUpSearchWords(this.db, scope.clientId);
    return readInTenant(this.db, scope.clientId, async (tx) => {
      const page = await findTicketPageText(tx, pageRequestOf(scope, query, defaultStatuses, true));
      const counters = page.counters ?? (await findTicketCounters(tx, scope.clientId, scope.userId));
      const nextCursor = page.count > query.pageSize && page.last ? encodeCursor(page.last) : null;
      const counts = JSON.stringify(tabCountsOf(scope, counters));
      return new JsonText(
        `{"content":[${page.views}],"nextCursor":${JSON.stringify(nextCursor)},"counts":${counts}}`,
      );
    });
  }

  async counts(scope: InboxScope): Promise<TabCounts> {
    const counters = await readInTenant(this.db, scope.clientId, (tx) =>
      findTicketCounters(tx, scope.clientId, scope.userId),
    );
    return tabCountsOf(scope, counters);
  }

  /**
   * One keyset page inside the caller's transaction; reads one row more to know if another
   * page follows. With a keyword, the caller brings the search words up to date first
   * (`catchUpSearchWords`), as `pageJson`'s does.
   */
  async page(
    tx: Executor,
    scope: InboxScope,
    query: TicketFilterQuery,
    defaultStatuses: readonly TicketStatus[],
  ): Promise<TicketPage> {
    const rows = await findTicketPage(tx, pageRequestOf(scope, query, defaultStatuses));
    return keysetPageOf(rows, query.pageSize, (row) => row.ticket.id);
  }

  /**
   * The same keyset page with each ticket written as `TicketSummary` JSON by PostgreSQL
   * (json-views.ts), for answers that splice each ticket into their own items (search).
   */
  async pageJson(
    tx: Executor,
    scope: InboxScope,
    query: TicketFilterQuery,
    defaultStatuses: readonly TicketStatus[],
  ): Promise<{ rows: TicketPageJsonRow[]; nextCursor: string | null }> {
    const rows = await findTicketPageJson(tx, pageRequestOf(scope, query, defaultStatuses));
    return keysetPageOf(rows, query.pageSize, (row) => row.id);
  }
}
