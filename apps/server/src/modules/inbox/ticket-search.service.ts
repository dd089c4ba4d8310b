import type { searchResponse, TicketFilterQuery } from '@app/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { readInTenant } from '../../db/tenant';
import type { InboxScope } from './inbox.policy';
import { presentTicket } from './ticket.presenter';
import { listDefaults, type TicketQueryService } from './ticket-query.service';
import { findMessageHits } from './ticket-search.repository';

export type SearchResponse = z.infer<typeof searchResponse>;

/**
 * Chat history search (core-inbox §2 chat-history and ticket-list): the ticket filters
 * plus a keyword over every message of the client (PostgreSQL full text) and, as a
 * trigram-backed fallback, customer names and phone numbers. Each hit carries the newest
 * matching message's snippet with the match between [[ and ]].
 */
export class TicketSearchService {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketQueryService,
  ) {}

  async search(scope: InboxScope, query: TicketFilterQuery): Promise<SearchResponse> {
    return readInTenant(this.db, scope.clientId, async (tx) => {
      const page = await this.tickets.page(tx, scope, query, listDefaults.table);
      const hits = query.keyword
        ? await findMessageHits(
            tx,
            scope.clientId,
            page.rows.map((row) => row.ticket.id),
            query.keyword,
          )
        : [];
      const hitOf = new Map(hits.map((hit) => [hit.ticketId, hit]));
      return {
        content: page.rows.map(({ ticket }) => {
          const hit = hitOf.get(ticket.id);
          return {
            ticket: presentTicket(ticket),
            message: hit
              ? { id: hit.id, snippet: hit.snippet, createdAt: hit.createdAt.toISOString() }
              : null,
          };
        }),
        nextCursor: page.nextCursor,
      };
    });
  }
}
