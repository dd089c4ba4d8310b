import type { App } from '../http/app';
import { callerOf } from '../http/route-access';
import type { RealtimeHub } from './realtime-hub';

/**
 * WebSocket at /ws. The access token comes as `?token=` or a bearer header; without a valid
 * one the upgrade is refused with 401. `?cursor=` resumes after the last event seen.
 */
export function registerRealtimeRoutes(app: App, hub: RealtimeHub): void {
  app.get('/ws', { websocket: true, config: { access: 'authenticated' } }, (socket, request) => {
    const cursorParam = (request.query as { cursor?: string }).cursor;
    const cursor = cursorParam && /^\d{1,19}$/.test(cursorParam) ? BigInt(cursorParam) : null;
    void hub.accept(socket, callerOf(request), cursor);
  });
}
