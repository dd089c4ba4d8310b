import { withTenant } from '../../db/tenant';
import { type InboxTestKit, ownerScopeOf } from './conversation.fixtures';
import { catchUpSearchWords } from './ticket-keyword';
import { findTicketPage, type TicketFilter, type TicketSort } from './ticket-query.repository';
import { listDefaults } from './ticket-query.service';

export interface PageOptions {
  /** Matches from which a keyword is tested for density (none by default: never). */
  denseFrom?: number;
  limit?: number;
  sort?: TicketSort;
}

/**
 * One keyset page of the owner's ticket table for the filter, with the given cap on a
 * keyword's id list, read as the services read it: the waiting messages' words first.
 */
export async function keywordPageRows(
  kit: InboxTestKit,
  filter: TicketFilter,
  keywordIdCap: number,
  options: PageOptions = {},
  after: { key: string; id: number } | null = null,
) {
  if (filter.keyword) await catchUpSearchWords(kit.server.database.db, kit.clientId);
  return withTenant(kit.server.database.db, kit.clientId, (tx) =>
    findTicketPage(tx, {
      scope: ownerScopeOf(kit),
      filter,
      defaultStatuses: listDefaults.table,
      sort: options.sort ?? 'createdAt',
      after,
      limit: options.limit ?? 50,
      keywordIdCap,
      keywordDenseFrom: options.denseFrom ?? Number.POSITIVE_INFINITY,
    }),
  );
}

/** The ticket ids of that page. */
export async function keywordPage(
  kit: InboxTestKit,
  filter: TicketFilter,
  keywordIdCap: number,
  options: PageOptions = {},
): Promise<number[]> {
  return (await keywordPageRows(kit, filter, keywordIdCap, options)).map((row) => row.ticket.id);
}
