import { columnSetBody, errorObject, ticketViewListResponse } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxScopeOf } from './inbox.policy';
import type { InboxViewsService } from './inbox-views.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];

/**
 * The ticket list's views (core-inbox §7 `views/list`): the tabs with their counts, which
 * the inbox shows too, and the column set each user keeps for the ticket table.
 */
export function registerInboxViewRoutes(app: App, views: InboxViewsService): void {
  app.get(
    '/api/ticket/views/list',
    {
      schema: { tags: ['ticket'], security, response: { 200: ticketViewListResponse, ...errors } },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => views.list(inboxScopeOf(callerOf(request))),
  );

  app.get(
    '/api/ticket/views/columns',
    {
      schema: { tags: ['ticket'], security, response: { 200: columnSetBody, ...errors } },
      config: { access: permission('VIEW_FEATURE') },
    },
    async (request) => views.columns(inboxScopeOf(callerOf(request))),
  );

  app.put(
    '/api/ticket/views/columns',
    {
      schema: {
        tags: ['ticket'],
        security,
        body: columnSetBody,
        response: { 200: columnSetBody, ...errors },
      },
      config: { access: permission('VIEW_FEATURE') },
    },
    async (request) => views.saveColumns(inboxScopeOf(callerOf(request)), request.body.columns),
  );
}
