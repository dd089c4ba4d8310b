import {
  agentStatusBody,
  agentStatusResponse,
  errorObject,
  meResponse,
  userListResponse,
  userSummary,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import type { UserService } from './user.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];

/** The caller's own profile, the client's users, and agent availability. */
export function registerUserRoutes(app: App, users: UserService): void {
  app.get(
    '/api/identity/users/me',
    {
      schema: { tags: ['identity'], security, response: { 200: meResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => users.me(callerOf(request)),
  );

  app.get(
    '/api/identity/users',
    {
      schema: {
        tags: ['identity'],
        security,
        querystring: z.object({
          pageNumber: z.coerce.number().int().min(1).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: userListResponse, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => {
      const { pageNumber, pageSize } = request.query;
      return users.list(callerOf(request), { limit: pageSize, offset: (pageNumber - 1) * pageSize });
    },
  );

  app.get(
    '/api/identity/users/:userId',
    {
      schema: {
        tags: ['identity'],
        security,
        params: z.object({ userId: z.string().uuid() }),
        response: { 200: userSummary, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => users.get(callerOf(request), request.params.userId),
  );

  app.post(
    '/api/identity/pushnotif/status',
    {
      schema: {
        tags: ['identity'],
        security,
        body: agentStatusBody,
        response: { 200: agentStatusResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => users.setAgentStatus(callerOf(request), request.body.status),
  );
}
