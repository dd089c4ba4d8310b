import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appVersion, errorMessages, mediaLimits } from '@app/contracts';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type AccessTokens, type AuthContext, bearerToken } from './authentication';
import { registerCompression } from './compression';
import { errorObject, forbidden, HttpError, unauthorized } from './http-errors';
import { responseSerializerCompiler } from './presented-response';
import './route-access';

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the HTTP app needs from the configuration (the platform never imports config.ts). */
export interface HttpAppConfig {
  BODY_LIMIT_BYTES: number;
  /** The smallest answer gzipped for a client that accepts it; 0 compresses nothing (compression.ts). */
  COMPRESS_FROM_BYTES?: number;
  WEB_DIST?: string;
  /**
   * Check presented responses with zod too (see presented-response.ts). On under tests, so
   * a presenter that drifts from its contract fails there; off otherwise.
   */
  checkPresentedResponses?: boolean;
}

/** Callbacks a module hands the platform (the platform never imports a module). */
export interface HttpAppHooks {
  /** Told of each permission refusal (the audit log); its failure never fails the request. */
  onForbidden?: (refusal: { auth: AuthContext; method: string; url: string; ip: string }) => Promise<void>;
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

/**
 * The headers @fastify/helmet sets with these options, worked out once on a throwaway app:
 * they never vary by request, and the plugin rebuilds helmet's middleware (parsing the CSP
 * directives again) on every request.
 */
async function securityHeadersOf(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify();
  await probe.register(helmet, options);
  probe.get('/with', async () => '');
  probe.get('/without', { helmet: false }, async () => '');
  const [withHelmet, withoutHelmet] = [await probe.inject('/with'), await probe.inject('/without')];
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(withHelmet.headers)) {
    if (name in withoutHelmet.headers || value === undefined) continue;
    headers[name] = String(value);
  }
  return headers;
}

/**
 * The HTTP app without modules: error shape, authentication and permission enforcement,
 * security headers, rate limiting, OpenAPI, websockets and the web app's files.
 */
export async function createHttpApp(
  config: HttpAppConfig,
  logger: FastifyBaseLogger,
  tokens: AccessTokens,
  hooks: HttpAppHooks = {},
): Promise<App> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: true,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    responseSerializerCompiler({
      trustPresented: !(config.checkPresentedResponses ?? Boolean(process.env.VITEST)),
    }),
  );
  app.decorateRequest('auth', null);

  // Every /api route must say what access it needs; a route that forgets cannot start.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    if (url.startsWith('/api/docs')) {
      route.config = { ...(route.config ?? {}), access: 'public' };
      return;
    }
    if ((url.startsWith('/api') || url === '/ws') && !route.config?.access) {
      throw new Error(`Route ${route.method} ${url} declares no access`);
    }
  });

  // The request id (taken from x-request-id when the caller sends one) goes back to the
  // caller, so a support report can be matched with the server's log lines.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  if (config.COMPRESS_FROM_BYTES !== 0) registerCompression(app, { minBytes: config.COMPRESS_FROM_BYTES });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError)
      return reply.code(error.statusCode).send(errorObject(error.statusCode, error.message));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = [error.validationContext, issue?.instancePath?.replace(/^\//, '').replaceAll('/', '.')]
        .filter(Boolean)
        .join('.');
      return reply.code(400).send(errorObject(400, `${where}: ${issue?.message ?? 'invalid'}`));
    }
    const failure = error as { code?: string; statusCode?: number; message?: string };
    if (failure.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send(errorObject(413, errorMessages.bodyTooLarge));
    if (
      failure.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (failure.statusCode === 400 && error instanceof SyntaxError)
    ) {
      return reply.code(400).send(errorObject(400, errorMessages.malformedJson));
    }
    const statusCode = failure.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500)
      return reply.code(statusCode).send(errorObject(statusCode, failure.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorObject(500, errorMessages.generic));
  });

  const securityHeaders = await securityHeadersOf({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        // Plain http on a LAN address must keep working for a laptop install.
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => ({ ...errorObject(429, errorMessages.tooManyRequests) }),
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // Multipart uploads stream file by file; routes may narrow these limits per call.
  await app.register(multipart, {
    limits: {
      fileSize: mediaLimits.uploadMaxBytes,
      files: mediaLimits.filesPerUpload,
      fields: 20,
      parts: 40,
    },
  });
  // After the websocket plugin, whose own onRequest hook must mark upgrades first so that a
  // refused upgrade's socket is destroyed.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token =
      bearerToken(request.headers.authorization) ??
      (request.url.startsWith('/ws') ? (request.query as { token?: string }).token : undefined);
    request.auth = await tokens.verify(token);
    if (!request.auth) throw unauthorized();
    if (access !== 'authenticated' && !request.auth.ability.can(access.action, access.subject)) {
      if (hooks.onForbidden) {
        const refusal = { auth: request.auth, method: request.method, url: request.url, ip: request.ip };
        await hooks
          .onForbidden(refusal)
          .catch((error) => request.log.warn({ err: error }, 'refusal not recorded'));
      }
      throw forbidden();
    }
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Omni Inbox API', version: appVersion },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const webDist = config.WEB_DIST ? path.resolve(config.WEB_DIST) : defaultWebDist;
  const serveWeb = existsSync(path.join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The build writes a .br and a .gz beside each file: sent as they are when the browser
      // accepts them, the plain file otherwise (and for files too small to have copies).
      preCompressed: true,
      // send's own `public, max-age=0` would overwrite the cache-control set below.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        response.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    const isApi = pathname.startsWith('/api') || pathname === '/ws';
    // A missing file (an old chunk, a typo) is a 404; only page paths get the app.
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname);
    if (!isApi && !isFile && serveWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      // The web app owns every other path: its router shows the page or its not-found screen.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorObject(404, errorMessages.routeNotFound));
  });

  return app as unknown as App;
}
