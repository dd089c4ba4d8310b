import {
  errorObject,
  messageResponse,
  passwordResetConfirmBody,
  passwordResetRequestBody,
  passwordResetRequestResponse,
  passwordResetValidateBody,
  passwordResetValidateResponse,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import type { PasswordResetService } from './password-reset.service';

const errors = { 400: errorObject, 403: errorObject, 404: errorObject, 429: errorObject };

/** Per address: the per-e-mail limits live in the service, these stop one caller trying many e-mails. */
const perAddress = (max: number) => ({
  max,
  timeWindow: 10 * 60_000,
  keyGenerator: (request: { ip: string }) => `password-reset:${request.ip}`,
});

/** Forgot password, before sign-in (core-inbox §7 Identity, §8); every route is public. */
export function registerPasswordResetRoutes(app: App, resets: PasswordResetService): void {
  app.post(
    '/api/identity/users/resetPassword/request',
    {
      schema: {
        tags: ['identity'],
        body: passwordResetRequestBody,
        response: { 200: passwordResetRequestResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(20) },
    },
    async (request) => resets.request(request.body.email),
  );

  app.post(
    '/api/identity/users/resetPassword/validate',
    {
      schema: {
        tags: ['identity'],
        body: passwordResetValidateBody,
        response: { 200: passwordResetValidateResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(40) },
    },
    async (request) => resets.validate(request.body),
  );

  app.post(
    '/api/identity/users/resetPassword/confirm',
    {
      schema: {
        tags: ['identity'],
        body: passwordResetConfirmBody,
        response: { 200: messageResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(40) },
    },
    async (request) => {
      await resets.confirm(request.body);
      return { message: 'Password changed, please sign in' };
    },
  );
}
