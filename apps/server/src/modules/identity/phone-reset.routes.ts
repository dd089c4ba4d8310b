import {
  errorObject,
  messageResponse,
  phoneResetConfirmBody,
  phoneResetRequestBody,
  phoneResetRequestResponse,
  phoneResetValidateBody,
  phoneResetValidateResponse,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import type { PhoneResetService } from './phone-reset.service';

const errors = { 400: errorObject, 403: errorObject, 404: errorObject, 429: errorObject };

/** Per address: the per-number limits live in the service, these stop one caller trying many numbers. */
const perAddress = (max: number) => ({
  max,
  timeWindow: 10 * 60_000,
  keyGenerator: (request: { ip: string }) => `phone-reset:${request.ip}`,
});

/** Reset by phone, before sign-in (core-inbox §2 /reset, §8); every route is public. */
export function registerPhoneResetRoutes(app: App, resets: PhoneResetService): void {
  app.post(
    '/api/identity/users/resetPassword/phone/request',
    {
      schema: {
        tags: ['identity'],
        body: phoneResetRequestBody,
        response: { 200: phoneResetRequestResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(20) },
    },
    async (request) => resets.request(request.body.phone),
  );

  app.post(
    '/api/identity/users/resetPassword/phone/validate',
    {
      schema: {
        tags: ['identity'],
        body: phoneResetValidateBody,
        response: { 200: phoneResetValidateResponse, ...errors },
      },
      config: { access: 'public', rateLimit: perAddress(40) },
    },
    async (request) => resets.validate(request.body),
  );

  app.post(
    '/api/identity/users/resetPassword/phone/confirm',
    {
      schema: {
        tags: ['identity'],
        body: phoneResetConfirmBody,
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
