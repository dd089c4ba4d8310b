import {
  accountActivity,
  accountActivityListResponse,
  deleteAccountActivityBody,
  deleteAccountActivityResponse,
  errorObject,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import type { AccountActivityService } from './account-activity.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];

/**
 * Account activity (core-inbox §7 Plus). Open to every signed-in user: the service narrows
 * what each sees and may delete (their own; admins the whole client's).
 */
export function registerAccountActivityRoutes(app: App, activity: AccountActivityService): void {
  app.post(
    '/api/plus/account-activity',
    {
      schema: { tags: ['plus'], security, response: { 200: accountActivity, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) =>
      activity.record(callerOf(request), {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      }),
  );

  app.get(
    '/api/plus/account-activity',
    {
      schema: { tags: ['plus'], security, response: { 200: accountActivityListResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => activity.list(callerOf(request)),
  );

  app.post(
    '/api/plus/account-activity/delete',
    {
      schema: {
        tags: ['plus'],
        security,
        body: deleteAccountActivityBody,
        response: { 200: deleteAccountActivityResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => activity.delete(callerOf(request), request.body),
  );
}
