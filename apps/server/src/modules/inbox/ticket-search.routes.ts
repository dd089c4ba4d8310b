import { errorObject, searchResponse, ticketFilterQuery } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { presented } from '../../platform/http/presented-response';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxScopeOf } from './inbox.policy';
import type { TicketSearchService } from './ticket-search.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];

/**
 * Chat history search (core-inbox §7): the ticket service's `search` with the filters in
 * the query, and the platform's `chatRoom/history` with the same filters in the body.
 */
export function registerTicketSearchRoutes(app: App, search: TicketSearchService): void {
  app.get(
    '/api/ticket/search',
    {
      schema: {
        tags: ['ticket'],
        security,
        querystring: ticketFilterQuery,
        response: { 200: presented(searchResponse), ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_HISTORY') },
    },
    async (request) => search.search(inboxScopeOf(callerOf(request)), request.query),
  );

  app.post(
    '/api/csp/chatRoom/history',
    {
      schema: {
        tags: ['inbox'],
        security,
        body: ticketFilterQuery,
        response: { 200: presented(searchResponse), ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_HISTORY') },
    },
    async (request) => search.search(inboxScopeOf(callerOf(request)), request.body),
  );
}
