import {
  adminUserBody,
  adminUserListQuery,
  adminUserListResponse,
  adminUserView,
  errorObject,
  messageResponse,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import type { AdminUserService } from './admin-user.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];
const tags = ['identity'];
const params = z.object({ userId: z.string().uuid() });

/** The admin-users screen's API (/setting/admin, SETTING_ADMIN; commerce §5, §6). */
export function registerAdminUserRoutes(app: App, admins: AdminUserService): void {
  app.get(
    '/api/identity/admin-users',
    {
      schema: {
        tags,
        security,
        querystring: adminUserListQuery,
        response: { 200: adminUserListResponse, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => admins.list(callerOf(request), request.query.search),
  );

  app.post(
    '/api/identity/admin-users',
    {
      schema: { tags, security, body: adminUserBody, response: { 200: adminUserView, ...errors } },
      config: { access: permission('SETTING_ADMIN', 'CREATE') },
    },
    async (request) => admins.create(callerOf(request), request.body),
  );

  app.put(
    '/api/identity/admin-users/:userId',
    {
      schema: { tags, security, params, body: adminUserBody, response: { 200: adminUserView, ...errors } },
      config: { access: permission('SETTING_ADMIN', 'UPDATE') },
    },
    async (request) => admins.update(callerOf(request), request.params.userId, request.body),
  );

  app.delete(
    '/api/identity/admin-users/:userId',
    {
      schema: { tags, security, params, response: { 200: messageResponse, ...errors } },
      config: { access: permission('SETTING_ADMIN', 'DELETE') },
    },
    async (request) => {
      await admins.remove(callerOf(request), request.params.userId);
      return { message: 'User deleted' };
    },
  );
}
