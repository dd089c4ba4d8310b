import { errorObject, inboxListQuery, ticketFilterQuery, ticketListResponse } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { presented } from '../../platform/http/presented-response';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxScopeOf } from './inbox.policy';
import { listDefaults, type TicketQueryService } from './ticket-query.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];

/**
 * The two lists of tickets (core-inbox §2, §7): the inbox's conversations (open chats,
 * latest activity first) and the ticket table (every state, newest first). Both take the
 * default filter fields and show only the chats the caller may see.
 */
export function registerTicketListRoutes(app: App, tickets: TicketQueryService): void {
  app.get(
    '/api/csp/chatRoom',
    {
      schema: {
        tags: ['inbox'],
        security,
        querystring: inboxListQuery,
        response: { 200: presented(ticketListResponse), ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => tickets.list(inboxScopeOf(callerOf(request)), request.query, listDefaults.inbox),
  );

  app.get(
    '/api/ticket/ticket/list',
    {
      schema: {
        tags: ['ticket'],
        security,
        querystring: ticketFilterQuery,
        response: { 200: presented(ticketListResponse), ...errors },
      },
      config: { access: permission('VIEW_FEATURE') },
    },
    async (request) => tickets.list(inboxScopeOf(callerOf(request)), request.query, listDefaults.table),
  );
}
