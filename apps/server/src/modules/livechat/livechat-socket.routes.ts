import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../../platform/http/app';
import type { VisitorConnection, VisitorHub } from './livechat-socket';
import {
  type VisitorConversations,
  type VisitorRateLimiter,
  VisitorSocketSession,
} from './livechat-socket-session';
import type { VisitorMedia, VisitorService } from './visitor.service';
import type { VisitorOriginPolicy } from './visitor-origin';

/** Close codes the widget acts on: start over with the pre-chat form, or give up on this site. */
export const visitorCloseCodes = { invalidToken: 4401, originRefused: 4403 } as const;

export interface LivechatSocketDependencies {
  hub: VisitorHub;
  visitors: VisitorService;
  conversations: VisitorConversations;
  media: VisitorMedia;
  origins: VisitorOriginPolicy;
  limiter: VisitorRateLimiter;
  logger: FastifyBaseLogger;
}

/**
 * The visitor socket, `/api/livechat/ws?widgetId=&token=&since=` (channel-protocols §11).
 * A refused token or site is answered on the open socket with a close code, because a
 * browser hides the status of a refused upgrade and the widget must know which it was.
 */
export function registerLivechatSocketRoutes(app: App, dependencies: LivechatSocketDependencies): void {
  const { hub, visitors, origins } = dependencies;
  app.get(
    '/api/livechat/ws',
    { websocket: true, config: { access: 'public' }, schema: { hide: true } },
    async (socket, request) => {
      const query = request.query as { token?: string; widgetId?: string; since?: string };
      // Frames that arrive while the token is checked wait in the socket's own buffer.
      socket.pause();
      const refuse = (code: number, reason: string) => {
        // Resumed first: the closing handshake needs the peer's answer to be read.
        socket.resume();
        socket.close(code, reason);
      };
      const visitor = await visitors.authenticate(query.token, query.widgetId).catch(() => null);
      if (!visitor) return refuse(visitorCloseCodes.invalidToken, 'invalid visitor token');
      if (!origins.allows(request, visitor.widget.domain))
        return refuse(visitorCloseCodes.originRefused, 'site not allowed');
      const origin = origins.originOf(request);
      if (origin && !visitor.widget.connectedAt && origins.matchesDomain(visitor.widget.domain, origin))
        await visitors.markConnected(visitor.widget);

      const since = query.since && /^\d{1,15}$/.test(query.since) ? Number(query.since) : null;
      let connection: VisitorConnection;
      try {
        connection = await hub.accept(socket, visitor, since);
      } catch (error) {
        dependencies.logger.error({ err: error }, 'visitor socket could not resume');
        socket.resume();
        return socket.close(1011, 'try again');
      }
      const session = new VisitorSocketSession(
        connection,
        hub,
        dependencies.conversations,
        dependencies.media,
        dependencies.limiter,
        dependencies.logger,
      );
      socket.on('message', (data) => session.receive(data.toString()));
      socket.resume();
    },
  );
}
