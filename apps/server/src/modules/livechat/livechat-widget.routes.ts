import {
  errorObject,
  livechatWidgetBody,
  livechatWidgetListResponse,
  livechatWidgetView,
  messageResponse,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { forbidden } from '../../platform/http/http-errors';
import { callerOf, permission } from '../../platform/http/route-access';
import { mayReadWidgets } from './livechat-widget.policy';
import type { LivechatWidgetService } from './livechat-widget.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject, 409: errorObject };
const security = [{ bearer: [] }];
const widgetParams = z.object({ id: z.string().uuid() });

/** Where this request reached us, for embed codes when PUBLIC_URL is not set. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Live-chat widget settings (commerce 'Live chat widget'); the visitor side is elsewhere. */
export function registerLivechatWidgetRoutes(app: App, widgets: LivechatWidgetService): void {
  app.get(
    '/api/livechat/widgets',
    {
      schema: { tags: ['livechat'], security, response: { 200: livechatWidgetListResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const caller = callerOf(request);
      if (!mayReadWidgets(caller)) throw forbidden();
      return { content: await widgets.list(caller, originOf(request)) };
    },
  );

  app.get(
    '/api/livechat/widgets/:id',
    {
      schema: {
        tags: ['livechat'],
        security,
        params: widgetParams,
        response: { 200: livechatWidgetView, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const caller = callerOf(request);
      if (!mayReadWidgets(caller)) throw forbidden();
      return widgets.get(caller, request.params.id, originOf(request));
    },
  );

  app.post(
    '/api/livechat/widgets',
    {
      schema: {
        tags: ['livechat'],
        security,
        body: livechatWidgetBody,
        response: { 200: livechatWidgetView, ...errors },
      },
      config: { access: permission('CREATE_LIVE_CHAT') },
    },
    async (request) => widgets.create(callerOf(request), request.body, originOf(request)),
  );

  app.put(
    '/api/livechat/widgets/:id',
    {
      schema: {
        tags: ['livechat'],
        security,
        params: widgetParams,
        body: livechatWidgetBody,
        response: { 200: livechatWidgetView, ...errors },
      },
      config: { access: permission('EDIT_LIVE_CHAT') },
    },
    async (request) => widgets.update(callerOf(request), request.params.id, request.body, originOf(request)),
  );

  app.delete(
    '/api/livechat/widgets/:id',
    {
      schema: {
        tags: ['livechat'],
        security,
        params: widgetParams,
        response: { 200: messageResponse, ...errors },
      },
      config: { access: permission('EDIT_LIVE_CHAT') },
    },
    async (request) => {
      await widgets.remove(callerOf(request), request.params.id);
      return { message: 'Live chat widget deleted' };
    },
  );
}
