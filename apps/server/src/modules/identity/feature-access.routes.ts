import {
  errorObject,
  featureAccessDetailQuery,
  featureAccessGroupBody,
  featureAccessGroupView,
  featureAccessListQuery,
  featureAccessListResponse,
  messageResponse,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import type { FeatureAccessService } from './feature-access.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];
const tags = ['identity'];
const params = z.object({ id: z.string().uuid() });

/** Feature-access groups (custom roles) of the caller's client, for admins (core-inbox §7 Identity). */
export function registerFeatureAccessRoutes(app: App, groups: FeatureAccessService): void {
  app.get(
    '/api/identity/feature-access/list',
    {
      schema: {
        tags,
        security,
        querystring: featureAccessListQuery,
        response: { 200: featureAccessListResponse, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => ({ content: await groups.list(callerOf(request), request.query.isDeleted) }),
  );

  app.get(
    '/api/identity/feature-access/detail',
    {
      schema: {
        tags,
        security,
        querystring: featureAccessDetailQuery,
        response: { 200: featureAccessGroupView, ...errors },
      },
      config: { access: permission('SETTING_ADMIN') },
    },
    async (request) => groups.detail(callerOf(request), request.query.name),
  );

  app.post(
    '/api/identity/feature-access',
    {
      schema: {
        tags,
        security,
        body: featureAccessGroupBody,
        response: { 200: featureAccessGroupView, ...errors },
      },
      config: { access: permission('SETTING_ADMIN', 'CREATE') },
    },
    async (request) => groups.create(callerOf(request), request.body),
  );

  app.put(
    '/api/identity/feature-access/:id',
    {
      schema: {
        tags,
        security,
        params,
        body: featureAccessGroupBody,
        response: { 200: featureAccessGroupView, ...errors },
      },
      config: { access: permission('SETTING_ADMIN', 'UPDATE') },
    },
    async (request) => groups.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/identity/feature-access/:id',
    {
      schema: { tags, security, params, response: { 200: messageResponse, ...errors } },
      config: { access: permission('SETTING_ADMIN', 'DELETE') },
    },
    async (request) => {
      await groups.remove(callerOf(request), request.params.id);
      return { message: 'Role deleted' };
    },
  );
}
