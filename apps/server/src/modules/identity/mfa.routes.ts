import {
  errorObject,
  loginResponse,
  messageResponse,
  mfaActivatedResponse,
  mfaCodeBody,
  mfaForcedActivationResponse,
  mfaPolicyBody,
  mfaPolicyResponse,
  mfaSetupResponse,
  mfaStatusResponse,
} from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app';
import { bearerToken } from '../../platform/http/authentication';
import { callerOf } from '../../platform/http/route-access';
import type { MfaService } from './mfa.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 429: errorObject };
const security = [{ bearer: [] }];
const tags = ['identity'];

const originOf = (request: FastifyRequest) => ({
  userAgent: request.headers['user-agent'] ?? null,
  ip: request.ip,
});

/**
 * 2-step verification (core-inbox §7 Identity, issue 14). The sign-in steps (`verify`,
 * the `internal` pair) are public routes whose bearer is the sign-in challenge, not an
 * access token; the rest need a signed-in user. Every route that takes a code is rate
 * limited per address and bearer, on top of the account lockout.
 */
export function registerMfaRoutes(app: App, mfa: MfaService, options: { codeRateLimit: number }): void {
  const rateLimit = {
    max: options.codeRateLimit,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `${request.ip}:${request.headers.authorization ?? ''}`,
  };

  app.get(
    '/api/identity/users/mfa/status',
    {
      schema: { tags, security, response: { 200: mfaStatusResponse, ...errors } },
      config: { access: 'authenticated' },
    },
    async (request) => mfa.status(callerOf(request)),
  );

  app.get(
    '/api/identity/users/mfa/activate',
    {
      schema: { tags, security, response: { 200: mfaSetupResponse, ...errors } },
      config: { access: 'authenticated', rateLimit },
    },
    async (request) => mfa.startActivation(callerOf(request)),
  );

  app.post(
    '/api/identity/users/mfa/activate',
    {
      schema: { tags, security, body: mfaCodeBody, response: { 200: mfaActivatedResponse, ...errors } },
      config: { access: 'authenticated', rateLimit },
    },
    async (request) => mfa.activate(callerOf(request), request.body.token),
  );

  app.post(
    '/api/identity/users/mfa/deactivate',
    {
      schema: { tags, security, body: mfaCodeBody, response: { 200: messageResponse, ...errors } },
      config: { access: 'authenticated', rateLimit },
    },
    async (request) => {
      await mfa.deactivate(callerOf(request), request.body.token);
      return { message: '2-step verification is off' };
    },
  );

  app.post(
    '/api/identity/users/mfa/verify',
    {
      schema: { tags, security, body: mfaCodeBody, response: { 200: loginResponse, ...errors } },
      config: { access: 'public', rateLimit },
    },
    async (request) =>
      mfa.verifySignIn(bearerToken(request.headers.authorization), request.body.token, originOf(request)),
  );

  app.get(
    '/api/identity/users/mfa/activate/internal',
    {
      schema: { tags, security, response: { 200: mfaSetupResponse, ...errors } },
      config: { access: 'public', rateLimit },
    },
    async (request) => mfa.startForcedActivation(bearerToken(request.headers.authorization)),
  );

  app.post(
    '/api/identity/users/mfa/verify/internal',
    {
      schema: {
        tags,
        security,
        body: mfaCodeBody,
        response: { 200: mfaForcedActivationResponse, ...errors },
      },
      config: { access: 'public', rateLimit },
    },
    async (request) =>
      mfa.activateForced(bearerToken(request.headers.authorization), request.body.token, originOf(request)),
  );

  app.put(
    '/api/identity/clients/mfa-policy',
    {
      schema: { tags, security, body: mfaPolicyBody, response: { 200: mfaPolicyResponse, ...errors } },
      // Owner only: decided by mfa.policy.ts, since no permission name means "the owner".
      config: { access: 'authenticated' },
    },
    async (request) => mfa.setPolicy(callerOf(request), request.body.required),
  );
}
