import type { App } from '../../platform/http/app';
import { demoLanguageOf, demoVisitorPage } from './livechat-demo.page';

/**
 * GET /demo/visitor: the mock storefront with the demo workspace's widget, where a person
 * writes as a visitor and sees the agents' replies. The page has no inline script, so the
 * app's content security policy (scripts from 'self' only) applies to it unchanged.
 */
export function registerLivechatDemoRoutes(app: App, demo: { widgetId: string | null }): void {
  app.get('/demo/visitor', { schema: { hide: true }, config: { access: 'public' } }, async (request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(demoVisitorPage(demoLanguageOf(request.headers['accept-language']), demo.widgetId)),
  );
}
