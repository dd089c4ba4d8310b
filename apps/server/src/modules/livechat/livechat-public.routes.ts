import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { EventBus } from '../../platform/events/event-bus';
import type { App } from '../../platform/http/app';
import { notFound } from '../../platform/http/http-errors';
import { registerLivechatDemoRoutes } from './livechat-demo.routes';
import { VisitorHub } from './livechat-socket';
import { registerLivechatSocketRoutes } from './livechat-socket.routes';
import { type VisitorConversations, VisitorRateLimiter } from './livechat-socket-session';
import { registerVisitorRoutes, type VisitorRouteOptions } from './visitor.routes';
import { type VisitorMedia, VisitorService, type WidgetConnections } from './visitor.service';
import { VisitorOriginPolicy } from './visitor-origin';
import { VisitorTokens } from './visitor-token';

const defaultWidgetFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../widget/dist/widget.js',
);

export interface LivechatPublicDependencies extends VisitorRouteOptions {
  db: Database;
  bus: EventBus;
  logger: FastifyBaseLogger;
  /** The server's JWT secret: visitor tokens are signed with it (another audience). */
  jwtSecret: string;
  publicUrl?: string;
  media: VisitorMedia;
  widgets: WidgetConnections;
  conversations: VisitorConversations;
  /** The demo workspace's widget, for the demo visitor page (null without the demo). */
  demoWidgetId: string | null;
  widgetFile?: string;
}

/**
 * Everything a website visitor reaches without an account: /widget.js, the widget's
 * configuration, pre-chat and upload calls, the visitor socket and the demo visitor page.
 * Answers the visitor hub, which the app closes with itself.
 */
export function registerLivechatPublicRoutes(app: App, dependencies: LivechatPublicDependencies): VisitorHub {
  const { db, media, logger } = dependencies;
  const origins = new VisitorOriginPolicy(dependencies.publicUrl);
  const visitors = new VisitorService(
    db,
    new VisitorTokens(dependencies.jwtSecret),
    media,
    dependencies.widgets,
  );
  const hub = new VisitorHub(dependencies.bus, db, media, logger);
  app.addHook('onClose', async () => hub.close());

  registerWidgetScript(app, dependencies.widgetFile ?? defaultWidgetFile);
  registerVisitorRoutes(app, visitors, origins, dependencies);
  registerLivechatSocketRoutes(app, {
    hub,
    visitors,
    origins,
    media,
    conversations: dependencies.conversations,
    limiter: new VisitorRateLimiter(),
    logger,
  });
  registerLivechatDemoRoutes(app, { widgetId: dependencies.demoWidgetId });
  return hub;
}

/**
 * Serves the built widget at /widget.js for every site that embeds it: other sites' pages
 * may load it (cross-origin resource policy), and it is cached only briefly so a new
 * version reaches visitors within minutes. The file is read again only when it changes.
 */
function registerWidgetScript(app: App, file: string): void {
  let cached: { mtimeMs: number; body: Buffer; etag: string } | null = null;
  app.get('/widget.js', { schema: { hide: true }, config: { access: 'public' } }, async (request, reply) => {
    const info = await stat(file).catch(() => null);
    if (!info) throw notFound('The live-chat widget is not built: run npm run build -w apps/widget');
    if (!cached || cached.mtimeMs !== info.mtimeMs) {
      const body = await readFile(file);
      const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
      cached = { mtimeMs: info.mtimeMs, body, etag };
    }
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .header('etag', cached.etag);
    if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
    return reply.send(cached.body);
  });
}
