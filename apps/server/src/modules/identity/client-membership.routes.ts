import { clientMembershipListResponse, errorObject, signInResponse, switchClientBody } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import type { ClientMembershipService } from './client-membership.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];

/** Multi-client accounts (issue 14): the clients the caller can enter, and switching to one. */
export function registerClientMembershipRoutes(app: App, memberships: ClientMembershipService): void {
  app.get(
    '/api/identity/users/clients',
    {
      schema: { tags: ['identity'], security, response: { 200: clientMembershipListResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => memberships.list(callerOf(request)),
  );

  app.post(
    '/api/identity/users/switch-client',
    {
      schema: {
        tags: ['identity'],
        security,
        body: switchClientBody,
        response: { 200: signInResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) =>
      memberships.switchClient(callerOf(request), request.body.clientId, {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      }),
  );
}
