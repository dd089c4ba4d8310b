import { type OidcErrorKey, oidcConfigResponse, oidcErrorKeys, signInResponse } from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';
import { startSession } from '../../shared/session';

/** Whether the server has Google sign-in configured; the button shows only then. */
export function oidcConfigQueryOptions() {
  return queryOptions({
    queryKey: ['identity', 'oidc', 'config'] as const,
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/identity/auth/oidc/config', { auth: false, schema: oidcConfigResponse }),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Where the Google button sends the browser: a full page load, since the issuer is another site. */
export function oidcStartHref(redirect: string | null): string {
  const query = redirect ? `?${new URLSearchParams({ redirect }).toString()}` : '';
  return `/api/identity/auth/oidc/start${query}`;
}

/** What the server's callback left in the sign-in page's address. */
export type OidcReturn = { code: string } | { error: OidcErrorKey } | null;

function isOidcErrorKey(value: string): value is OidcErrorKey {
  return (oidcErrorKeys as ReadonlyArray<string>).includes(value);
}

/** Reads `?oidc=<code>` or `?oidcError=<key>`; an unknown key reads as a failed sign-in. */
export function readOidcReturn(search: string): OidcReturn {
  const params = new URLSearchParams(search);
  const code = params.get('oidc');
  if (code) return { code };
  const error = params.get('oidcError');
  if (error) return { error: isOidcErrorKey(error) ? error : 'signInFailed' };
  return null;
}

/** Codes already traded in this page: a second effect run (StrictMode, re-mount) must not replay one. */
const tradedCodes = new Set<string>();

/**
 * Trades the one-time code once for the sign-in answer; a session starts at once unless
 * a 2-step challenge comes back, exactly as after the password step. Null when already
 * traded in this page.
 */
export async function exchangeOidcCode(code: string) {
  if (tradedCodes.has(code)) return null;
  tradedCodes.add(code);
  const result = await api.post(
    '/api/identity/auth/oidc/exchange',
    { code },
    { auth: false, schema: signInResponse },
  );
  if (result.ok && 'accessToken' in result.data) {
    startSession({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken });
  }
  return result;
}
