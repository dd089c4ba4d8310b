import {
  changePasswordBody,
  errorObject,
  loginBody,
  logoutBody,
  messageResponse,
  refreshBody,
  signInResponse,
  tokenPair,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import type { AuthService } from './auth.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 429: errorObject };

/** Sign-in, refresh, sign-out and password change (core-inbox §4, §7 Identity). */
export function registerAuthRoutes(app: App, auth: AuthService, options: { loginRateLimit: number }): void {
  app.post(
    '/api/identity/auth/login',
    {
      schema: { tags: ['identity'], body: loginBody, response: { 200: signInResponse, ...errors } },
      config: {
        access: 'public',
        rateLimit: {
          max: options.loginRateLimit,
          timeWindow: 60_000,
          keyGenerator: (request) => {
            const email = (request.body as { email?: unknown } | undefined)?.email;
            return `${request.ip}:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
          },
        },
      },
    },
    async (request) =>
      auth.login(request.body, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip }),
  );

  app.post(
    '/api/identity/auth/refresh-access',
    {
      schema: { tags: ['identity'], body: refreshBody, response: { 200: tokenPair, ...errors } },
      config: { access: 'public' },
    },
    async (request) => auth.refresh(request.body.refreshToken),
  );

  app.post(
    '/api/identity/auth/logout',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        body: logoutBody.optional(),
        response: { 200: messageResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      await auth.logout(callerOf(request));
      return { message: 'Logged out' };
    },
  );

  app.put(
    '/api/identity/users/changePassword',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        body: changePasswordBody,
        response: { 200: messageResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      await auth.changePassword(callerOf(request), request.body);
      return { message: 'Password changed, please sign in again' };
    },
  );
}
