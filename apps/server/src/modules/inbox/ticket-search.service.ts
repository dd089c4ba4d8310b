import type { searchResponse, TicketFilterQuery } from '@app/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { readInTenant } from '../../db/tenant';
import { JsonText } from '../../platform/http/presented-response';
import type { InboxScope } from './inbox.policy';
import { jsonArrayOf } from './json-views';
import { catchUpSearchWords } from './ticket-keyword';
import { listDefaults, type TicketQueryService } from './ticket-query.service';
import { findMessageHits } from './ticket-search.repository';

export type SearchResponse = z.infer<typeof searchResponse>;

/**
 * Chat history search (core-inbox §2 chat-history and ticket-list): the ticket filters
 * plus a keyword over every message of the client (PostgreSQL full text) and, as a
 * trigram-backed fallback, customer names and phone numbers. Each hit carries the newest
 * matching message's snippet with the match between [[ and ]]. The tickets come written as
 * JSON by PostgreSQL (json-views.ts), as the lists' do; the answer is `SearchResponse`.
 */
export class TicketSearchService {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketQueryService,
  ) {}

  async search(scope: InboxScope, query: TicketFilterQuery): Promise<JsonText> {
    if (query.keyword) await catchUpSearchWords(this.db, scope.clientId);
    return readInTenant(this.db, scope.clientId, async (tx) => {
      const page = await this.tickets.pageJson(tx, scope, query, listDefaults.table);
      const hits = query.keyword
        ? await findMessageHits(
            tx,
            scope.clientId,
            page.rows.map((row) => row.id),
            query.keyword,
          )
        : [];
      const hitOf = new Map(hits.map((hit) => [hit.ticketId, hit]));
      const content = page.rows.map((row) => {
        const hit = hitOf.get(row.id);
        const message = hit
          ? JSON.stringify({ id: hit.id, snippet: hit.snippet, createdAt: hit.createdAt.toISOString() })
          : 'null';
        return `{"ticket":${row.view},"message":${message}}`;
      });
      return new JsonText(
        `{"content":${jsonArrayOf(content)},"nextCursor":${JSON.stringify(page.nextCursor)}}`,
      );
    });
  }
}
