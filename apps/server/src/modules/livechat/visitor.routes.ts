import {
  errorObject,
  mediaLimits,
  visitorAttachment,
  visitorChatLimits,
  visitorErrors,
  visitorRegistrationBody,
  visitorRegistrationResponse,
  widgetPublicConfig,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { bearerToken } from '../../platform/http/authentication';
import { addVary } from '../../platform/http/compression';
import { badRequest, HttpError } from '../../platform/http/http-errors';
import type { VisitorService } from './visitor.service';
import type { VisitorOriginPolicy } from './visitor-origin';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject, 429: errorObject };
const widgetParams = z.object({ widgetId: z.string().uuid() });

declare module 'fastify' {
  interface FastifyRequest {
    /** The domain of the widget the request is about, once known: it decides CORS. */
    widgetDomain?: string;
  }
}

export interface VisitorRouteOptions {
  /** Visitor registrations per address per window (tests lower it). */
  registrationsPerWindow?: number;
}

/**
 * The widget's public HTTP calls (channel-protocols §11): its configuration, the pre-chat
 * form that issues a visitor token, and uploads. Pages of the widget's domain and of the
 * app itself may call them from the browser (CORS); other sites' pages are refused.
 */
export function registerVisitorRoutes(
  app: App,
  visitors: VisitorService,
  origins: VisitorOriginPolicy,
  options: VisitorRouteOptions = {},
): void {
  app.decorateRequest('widgetDomain', undefined);

  /**
   * Every answer of these routes, errors included, carries the CORS headers the page's
   * origin may have, so the widget can read a 429 or a 403 and say what happened.
   */
  const cors = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    origins.allowCors(request, reply, request.widgetDomain ?? null, reply.statusCode >= 400);
    return payload;
  };
  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = origins.originOf(request);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      addVary(reply, 'Origin');
      reply.header('access-control-allow-methods', 'GET, POST');
      reply.header('access-control-allow-headers', 'content-type, authorization');
      reply.header('access-control-max-age', '600');
    }
    return reply.code(204).send();
  };

  app.get(
    '/api/livechat/widget/:widgetId/config',
    {
      schema: { tags: ['livechat'], params: widgetParams, response: { 200: widgetPublicConfig, ...errors } },
      config: { access: 'public' },
      onSend: cors,
    },
    async (request, reply) => {
      const widget = await visitors.widget(request.params.widgetId);
      request.widgetDomain = widget.domain;
      visitors.assertOrigin(origins.allows(request, widget.domain));
      const origin = origins.originOf(request);
      reply.header('cache-control', 'no-store');
      return visitors.config(widget, origin !== null && origins.matchesDomain(widget.domain, origin));
    },
  );

  app.options(
    '/api/livechat/widget/:widgetId/visitors',
    { schema: { hide: true }, config: { access: 'public' } },
    preflight,
  );
  app.post(
    '/api/livechat/widget/:widgetId/visitors',
    {
      schema: {
        tags: ['livechat'],
        params: widgetParams,
        body: visitorRegistrationBody,
        response: { 200: visitorRegistrationResponse, ...errors },
      },
      config: {
        access: 'public',
        rateLimit: {
          max: options.registrationsPerWindow ?? visitorChatLimits.registrationsPerWindow,
          timeWindow: visitorChatLimits.registrationWindowMs,
          keyGenerator: (request) => `livechat-visitor:${request.ip}`,
        },
      },
      onSend: cors,
    },
    async (request) => {
      const widget = await visitors.widget(request.params.widgetId);
      request.widgetDomain = widget.domain;
      visitors.assertOrigin(origins.allows(request, widget.domain));
      return visitors.register(widget, request.body);
    },
  );

  app.options('/api/livechat/upload', { schema: { hide: true }, config: { access: 'public' } }, preflight);
  app.post(
    '/api/livechat/upload',
    {
      schema: {
        tags: ['livechat'],
        consumes: ['multipart/form-data'],
        querystring: z.object({ widgetId: z.string().uuid().optional() }),
        response: { 200: visitorAttachment, 413: errorObject, ...errors },
      },
      // The visitor token, not an agent's, is the authority here: the handler checks it.
      config: { access: 'public' },
      onSend: cors,
    },
    async (request) => {
      const visitor = await visitors.authenticate(
        bearerToken(request.headers.authorization),
        request.query.widgetId,
      );
      request.widgetDomain = visitor.widget.domain;
      visitors.assertOrigin(origins.allows(request, visitor.widget.domain));
      if (!request.isMultipart()) throw badRequest(visitorErrors.noFile);
      try {
        // One byte past the largest file, so that exceeding it is seen rather than cut off silently.
        const part = await request.file({ limits: { fileSize: mediaLimits.uploadMaxBytes + 1, files: 1 } });
        if (!part) throw badRequest(visitorErrors.noFile);
        return await visitors.upload(visitor, {
          name: part.filename || 'file',
          mime: part.mimetype,
          content: part.file,
        });
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, visitorErrors.attachmentSize);
        throw error;
      }
    },
  );
}
