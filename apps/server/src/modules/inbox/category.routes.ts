import { categoryInput, categoryListResponse, categoryView } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxRouteErrors } from './chat-room.routes';
import type { InboxSettingsService } from './inbox-settings.service';

const security = [{ bearer: [] }];
const params = z.object({ id: z.string().uuid() });
/** Agents pick categories; defining them is a chat-service setting. */
const manage = permission('CUSTOMER_SERVICE_SETTING', 'UPDATE');

/** Ticket categories (core-inbox §7: GET, POST, PUT, DELETE categories). */
export function registerCategoryRoutes(app: App, settings: InboxSettingsService): void {
  app.get(
    '/api/csp/categories',
    {
      schema: { tags: ['inbox'], security, response: { 200: categoryListResponse, ...inboxRouteErrors } },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => settings.categories(callerOf(request)),
  );

  app.post(
    '/api/csp/categories',
    {
      schema: {
        tags: ['inbox'],
        security,
        body: categoryInput,
        response: { 201: categoryView, ...inboxRouteErrors },
      },
      config: { access: manage },
    },
    async (request, reply) =>
      reply.code(201).send(await settings.createCategory(callerOf(request), request.body)),
  );

  app.put(
    '/api/csp/categories/:id',
    {
      schema: {
        tags: ['inbox'],
        security,
        params,
        body: categoryInput,
        response: { 200: categoryView, ...inboxRouteErrors },
      },
      config: { access: manage },
    },
    async (request) => settings.updateCategory(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/csp/categories/:id',
    {
      schema: { tags: ['inbox'], security, params, response: { 204: z.null(), ...inboxRouteErrors } },
      config: { access: manage },
    },
    async (request, reply) => {
      await settings.deleteCategory(callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
