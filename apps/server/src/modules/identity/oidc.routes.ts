import {
  errorObject,
  oidcCallbackQuery,
  oidcConfigResponse,
  oidcExchangeBody,
  oidcStartQuery,
  signInResponse,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app';
import type { OidcService } from './oidc.service';

const callbackPath = '/api/identity/auth/oidc/callback';

/** The callback address registered at the issuer: PUBLIC_URL when set, else this request's origin. */
function redirectUriOf(request: FastifyRequest, publicUrl: string | undefined): string {
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${base.replace(/\/$/, '')}${callbackPath}`;
}

/**
 * Google sign-in over OpenID Connect (issue 14). Every route is public: they are the way
 * in. With no issuer configured only the config route exists, answering `enabled: false`.
 */
export function registerOidcRoutes(
  app: App,
  oidc: OidcService | null,
  options: { publicUrl?: string; rateLimit: number },
): void {
  app.get(
    '/api/identity/auth/oidc/config',
    {
      schema: { tags: ['identity'], response: { 200: oidcConfigResponse } },
      config: { access: 'public' },
    },
    async () => ({ enabled: oidc !== null }),
  );
  if (!oidc) return;

  const perAddress = { max: options.rateLimit, timeWindow: 60_000 };

  app.get(
    '/api/identity/auth/oidc/start',
    {
      schema: { tags: ['identity'], querystring: oidcStartQuery },
      config: { access: 'public', rateLimit: perAddress },
    },
    async (request, reply) => {
      const location = await oidc.start(redirectUriOf(request, options.publicUrl), request.query.redirect);
      return reply.redirect(location, 302);
    },
  );

  app.get(
    callbackPath,
    {
      schema: { tags: ['identity'], querystring: oidcCallbackQuery },
      config: { access: 'public', rateLimit: perAddress },
    },
    async (request, reply) => {
      const location = await oidc.callback(request.query, redirectUriOf(request, options.publicUrl), {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      });
      return reply.redirect(location, 302);
    },
  );

  app.post(
    '/api/identity/auth/oidc/exchange',
    {
      schema: {
        tags: ['identity'],
        body: oidcExchangeBody,
        response: { 200: signInResponse, 400: errorObject, 429: errorObject },
      },
      config: { access: 'public', rateLimit: perAddress },
    },
    async (request) => oidc.exchange(request.body.code),
  );
}
