import { errorObject, mailboxListResponse, mailboxQuery } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import type { MailOutboxService } from './mail-outbox.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };

/** The owner's local mailbox (issue 14): the client's own outbox rows, never another's. */
export function registerMailOutboxRoutes(app: App, mailbox: MailOutboxService): void {
  app.get(
    '/api/identity/mailbox',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        querystring: mailboxQuery,
        response: { 200: mailboxListResponse, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => {
      const { pageNumber, pageSize } = request.query;
      return mailbox.list(callerOf(request), { limit: pageSize, offset: (pageNumber - 1) * pageSize });
    },
  );
}
