import { Readable } from 'node:stream';
import { chatHistoryDownloadQuery, errorObject } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxScopeOf } from './inbox.policy';
import type { TicketExportService } from './ticket-export.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];

/** The chat-history download (commerce: up to 31 days) as a CSV file a spreadsheet opens. */
export function registerTicketExportRoutes(app: App, exports: TicketExportService): void {
  app.get(
    '/api/ticket/search/download',
    {
      schema: {
        tags: ['ticket'],
        security,
        querystring: chatHistoryDownloadQuery,
        // A stream is sent as it is; the schema only documents it.
        response: { 200: z.any().describe('text/csv, UTF-8 with a byte-order mark'), ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_HISTORY') },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const file = exports.download(inboxScopeOf(caller), request.query, caller.claims.sub.clientTimezone);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(file.lines));
    },
  );
}
