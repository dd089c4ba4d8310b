import { errorObject, pushStateResponse, userProfileBody, vapidPublicKeyResponse } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import type { PushService } from './push.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };
const security = [{ bearer: [] }];

/**
 * Web Push for the signed-in user (core-inbox: "PUT users/userProfile (push token)",
 * "POST pushnotif/offline"). Every route acts on the caller's own session only.
 */
export function registerPushRoutes(app: App, push: PushService): void {
  app.get(
    '/api/identity/pushnotif/vapid-public-key',
    {
      schema: { tags: ['notifications'], security, response: { 200: vapidPublicKeyResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async () => push.publicKey(),
  );

  app.put(
    '/api/identity/users/userProfile',
    {
      schema: {
        tags: ['notifications'],
        security,
        body: userProfileBody,
        response: { 200: pushStateResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => push.saveProfile(callerOf(request), request.body, request.headers['user-agent']),
  );

  app.post(
    '/api/identity/pushnotif/offline',
    {
      schema: { tags: ['notifications'], security, response: { 200: pushStateResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => push.wentOffline(callerOf(request)),
  );
}
