import {
  devMailboxQuery,
  devMailboxResponse,
  errorObject,
  loginResponse,
  signupAccountRequest,
  signupCodeResponse,
  signupCompleteBody,
  signupResendBody,
  signupVerifyBody,
  signupVerifyResponse,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import type { SignupService } from './signup.service';

const errors = { 400: errorObject, 404: errorObject, 429: errorObject };

/** Per address, like forgot password's: the per-e-mail quota (five codes an hour) lives in the service. */
const perAddress = (max: number) => ({
  max,
  timeWindow: 10 * 60_000,
  keyGenerator: (request: { ip: string }) => `signup:${request.ip}`,
});

/** Sign-up before any client exists (commerce §5, issue 14); every route is public. */
export function registerSignupRoutes(
  app: App,
  signups: SignupService,
  options: { devMailbox: boolean },
): void {
  app.post(
    '/api/identity/signup/account',
    {
      schema: {
        tags: ['identity'],
        body: signupAccountRequest,
        response: { 200: signupCodeResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(30) },
    },
    async (request) => signups.account(request.body, request.ip),
  );

  app.post(
    '/api/identity/signup/resend',
    {
      schema: {
        tags: ['identity'],
        body: signupResendBody,
        response: { 200: signupCodeResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(20) },
    },
    async (request) => signups.resend(request.body.signupId, request.ip),
  );

  app.post(
    '/api/identity/signup/verify',
    {
      schema: {
        tags: ['identity'],
        body: signupVerifyBody,
        response: { 200: signupVerifyResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(40) },
    },
    async (request) => signups.verify(request.body),
  );

  app.post(
    '/api/identity/signup/complete',
    {
      schema: { tags: ['identity'], body: signupCompleteBody, response: { 200: loginResponse, ...errors } },
      config: { access: 'public', rateLimit: perAddress(40) },
    },
    async (request) =>
      signups.complete(request.body, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip }),
  );

  // Only for a machine without SMTP, and only when asked for: the codes would otherwise be unreadable.
  if (!options.devMailbox) return;
  app.get(
    '/api/dev/mailbox',
    {
      schema: {
        tags: ['identity'],
        querystring: devMailboxQuery,
        response: { 200: devMailboxResponse, ...errors },
      },
      config: { access: 'public' },
    },
    async (request) => signups.devMailbox(request.query.recipient),
  );
}
