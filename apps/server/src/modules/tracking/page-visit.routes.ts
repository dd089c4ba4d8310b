import { errorObject, pageVisitBody, pageVisitResponse, trackerConfigResponse } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import type { PageVisitService } from './page-visit.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];
const tags = ['commerce'];

/**
 * The tracker (core-inbox §7 Commerce: POST tracker/page-visitation) and its switch: any
 * signed-in user reports their own visits; whether they are kept depends on the client.
 */
export function registerPageVisitRoutes(app: App, visits: PageVisitService): void {
  app.post(
    '/api/commerce/tracker/page-visitation',
    {
      schema: { tags, security, body: pageVisitBody, response: { 200: pageVisitResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => visits.record(callerOf(request), request.body),
  );

  app.get(
    '/api/commerce/tracker/config',
    {
      schema: { tags, security, response: { 200: trackerConfigResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => visits.config(callerOf(request)),
  );
}
