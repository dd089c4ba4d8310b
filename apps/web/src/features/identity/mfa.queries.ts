import {
  type ErrorObject,
  errorKeyOf,
  type LoginBody,
  loginResponse,
  messageResponse,
  mfaActivatedResponse,
  mfaForcedActivationResponse,
  mfaPolicyResponse,
  mfaSetupResponse,
  mfaStatusResponse,
  signInResponse,
} from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';
import { type ApiResult, api, dataOrThrow, toErrorObject } from '../../shared/api-client';
import { errorText } from '../../shared/i18n';
import { startSession } from '../../shared/session';

export const mfaStatusQueryKey = ['identity', 'mfa', 'status'] as const;

/** Whether the signed-in user has 2-step on, and whether their client requires it. */
export function mfaStatusQueryOptions() {
  return queryOptions({
    queryKey: mfaStatusQueryKey,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/identity/users/mfa/status', { schema: mfaStatusResponse })),
  });
}

/**
 * The password step: a session starts at once unless the server asks for a code
 * (`mfaRequired`) or a first activation (`mfaSetupRequired`) with a challenge token.
 */
export async function signInWithPassword(body: LoginBody) {
  const result = await api.post('/api/identity/auth/login', body, { auth: false, schema: signInResponse });
  if (result.ok && 'accessToken' in result.data) {
    startSession({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken });
  }
  return result;
}

/**
 * A call whose bearer is a sign-in challenge rather than an access token: it must not
 * touch the stored session nor try to refresh it.
 */
async function challengeCall<T>(
  method: 'GET' | 'POST',
  path: string,
  challenge: string,
  schema: ZodType<T>,
  body?: unknown,
): Promise<ApiResult<T>> {
  try {
    const response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${challenge}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) return { ok: false, error: toErrorObject(response.status, json) };
    const parsed = schema.safeParse(json);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, error: toErrorObject(500, null) };
  } catch {
    return { ok: false, error: toErrorObject(0, null) };
  }
}

/** The code step of sign-in: a code or recovery code for the challenge opens the session. */
export async function verifySignInCode(challenge: string, code: string) {
  const result = await challengeCall('POST', '/api/identity/users/mfa/verify', challenge, loginResponse, {
    token: code,
  });
  if (result.ok)
    startSession({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken });
  return result;
}

/** Forced activation, first half: a secret for the user the setup challenge names. */
export function startForcedActivation(challenge: string) {
  return challengeCall('GET', '/api/identity/users/mfa/activate/internal', challenge, mfaSetupResponse);
}

/** Forced activation, second half: the first code turns 2-step on and signs in. */
export async function finishForcedActivation(challenge: string, code: string) {
  const result = await challengeCall(
    'POST',
    '/api/identity/users/mfa/verify/internal',
    challenge,
    mfaForcedActivationResponse,
    { token: code },
  );
  if (result.ok)
    startSession({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken });
  return result;
}

/** A new pending secret for the signed-in user. */
export function startActivation() {
  return api.get('/api/identity/users/mfa/activate', { schema: mfaSetupResponse });
}

/** Turns 2-step on with the first code; answers the recovery codes, shown once. */
export function activateMfa(code: string) {
  return api.post('/api/identity/users/mfa/activate', { token: code }, { schema: mfaActivatedResponse });
}

/** Turns 2-step off with a code or recovery code. */
export function deactivateMfa(code: string) {
  return api.post('/api/identity/users/mfa/deactivate', { token: code }, { schema: messageResponse });
}

/** The owner's switch: 2-step for everyone in the client. */
export function setMfaPolicy(required: boolean) {
  return api.put('/api/identity/clients/mfa-policy', { required }, { schema: mfaPolicyResponse });
}

/** Where the forced-activation page finds the setup challenge: this tab only, gone on close. */
const setupChallengeKey = 'omni-inbox.mfa-setup-challenge';

export const setupChallenge = {
  save: (token: string) => sessionStorage.setItem(setupChallengeKey, token),
  read: () => sessionStorage.getItem(setupChallengeKey),
  clear: () => sessionStorage.removeItem(setupChallengeKey),
};

/** The 2-step texts live in this feature's locale; other errors use the shared catalogue. */
export function mfaErrorText(t: TFunction, error: ErrorObject): string {
  const key = errorKeyOf(error.message);
  if (key?.startsWith('mfa')) return t(`mfa.errors.${key}`);
  return errorText(t, error);
}
