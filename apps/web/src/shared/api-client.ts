import { type ErrorObject, errorMessages, tokenPair } from '@app/contracts';
import type { ZodType } from 'zod';
import { type RequestSample, requestTiming } from './request-timing';
import { browserTokenStore, endSession, type TokenStore } from './session';

/** Every call answers with this instead of throwing (core-inbox §7). */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ErrorObject };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions<T> {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Send the bearer token and refresh on 401; false for sign-in and refresh themselves. */
  auth?: boolean;
  /** Checks the success body against the contract; a mismatch is reported as an error. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Prefix of every path; empty in the browser, where the API shares the page's origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  tokens: TokenStore;
  /** Called once when the refresh token is rejected: the session is over. */
  onSessionExpired: () => void;
  /**
   * Runs the refresh so that only one tab rotates the refresh token at a time; a used
   * refresh token is rejected, so two tabs refreshing together would sign one out.
   */
  runExclusive?: <R>(task: () => Promise<R>) => Promise<R>;
  /** Told of every completed call (not of cancelled ones), for the request timing log. */
  onCallCompleted?: (sample: RequestSample) => void;
}

export const refreshPath = '/api/identity/auth/refresh-access';

/** The failure object with the spec's defaults filled in (core-inbox §8). */
export function toErrorObject(status: number | undefined, body: unknown): ErrorObject {
  const source = typeof body === 'object' && body !== null ? (body as Partial<Record<string, unknown>>) : {};
  return {
    statusCode: typeof source.statusCode === 'number' ? source.statusCode : status || 500,
    error: typeof source.error === 'string' ? source.error : 'error',
    message: typeof source.message === 'string' ? source.message : errorMessages.generic,
  };
}

interface RawResponse {
  /** 0 when the request never got an answer (network down, server gone). */
  status: number;
  body: unknown;
}

function browserLocks<R>(task: () => Promise<R>): Promise<R> {
  const locks = (globalThis as { navigator?: Navigator }).navigator?.locks;
  if (!locks) return task();
  return locks.request('omni-inbox-token-refresh', task) as Promise<R>;
}

/** An API client bound to a token store; see `api` for the browser's instance. */
export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl ?? '';
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const runExclusive = options.runExclusive ?? browserLocks;
  let refreshing: Promise<boolean> | null = null;

  function urlOf(path: string, query: RequestOptions<unknown>['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return `${baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  async function send(path: string, call: RequestOptions<unknown>, token: string | undefined) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    try {
      const response = await fetchImpl(urlOf(path, call.query), {
        method: call.method ?? 'GET',
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.signal,
      });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page is no message for users; the spec's defaults apply.
        body = null;
      }
      return { status: response.status, body } satisfies RawResponse;
    } catch {
      return { status: 0, body: null } satisfies RawResponse;
    }
  }

  async function rotate(failedToken: string): Promise<boolean> {
    const stored = options.tokens.read();
    if (!stored) return false;
    // Another request, or another tab, already replaced the token that failed.
    if (stored.accessToken !== failedToken) return true;
    const response = await send(
      refreshPath,
      { method: 'POST', body: { refreshToken: stored.refreshToken } },
      undefined,
    );
    const pair = response.status >= 200 && response.status < 300 ? tokenPair.safeParse(response.body) : null;
    if (pair?.success) {
      options.tokens.write({ accessToken: pair.data.accessToken, refreshToken: pair.data.refreshToken });
      return true;
    }
    // Only a refresh the server refused ends the session; an unreachable server must not
    // sign everyone out, the next call simply tries again.
    if (response.status >= 400 && response.status < 500) options.onSessionExpired();
    return false;
  }

  /**
   * Gets a new access token after `failedToken` was refused. Concurrent callers share
   * one refresh; callers whose token was already replaced get `true` at once.
   */
  function refreshAfter(failedToken: string): Promise<boolean> {
    if (!refreshing) {
      refreshing = runExclusive(() => rotate(failedToken)).finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  function settle<T>(response: RawResponse, schema: ZodType<T> | undefined): ApiResult<T> {
    if (response.status >= 200 && response.status < 300) {
      if (!schema) return { ok: true, data: response.body as T };
      const parsed = schema.safeParse(response.body);
      if (parsed.success) return { ok: true, data: parsed.data };
      console.error('Response does not match the contract', parsed.error.issues);
      return { ok: false, error: toErrorObject(500, null) };
    }
    return { ok: false, error: toErrorObject(response.status, response.body) };
  }

  /** Sends one call; a 401 refreshes once and retries once, never more. */
  async function request<T>(path: string, call: RequestOptions<T> = {}): Promise<ApiResult<T>> {
    const auth = call.auth ?? true;
    const token = auth ? options.tokens.read()?.accessToken : undefined;
    const startedAt = performance.now();
    let response = await send(path, call, token);
    if (auth && token && response.status === 401 && (await refreshAfter(token))) {
      response = await send(path, call, options.tokens.read()?.accessToken);
    }
    const result = settle(response, call.schema);
    if (!call.signal?.aborted)
      options.onCallCompleted?.({ path, durationMs: performance.now() - startedAt, ok: result.ok });
    return result;
  }

  type CallOptions<T> = Omit<RequestOptions<T>, 'method' | 'body'>;

  return {
    request,
    refreshAfter,
    get: <T>(path: string, call: CallOptions<T> = {}) => request<T>(path, { ...call, method: 'GET' }),
    post: <T>(path: string, body?: unknown, call: CallOptions<T> = {}) =>
      request<T>(path, { ...call, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, call: CallOptions<T> = {}) =>
      request<T>(path, { ...call, method: 'PUT', body }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Thrown only inside TanStack Query functions, which need a rejection to show an error state. */
export class ApiRequestError extends Error {
  constructor(readonly detail: ErrorObject) {
    super(detail.message);
    this.name = 'ApiRequestError';
  }
}

/** Turns a result into data or an `ApiRequestError`, for query and mutation functions. */
export function dataOrThrow<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  throw new ApiRequestError(result.error);
}

/** The error object behind anything a query or mutation rejected with. */
export function errorObjectOf(error: unknown): ErrorObject {
  return error instanceof ApiRequestError ? error.detail : toErrorObject(undefined, null);
}

/** The browser's client: tokens in localStorage; a rejected refresh ends the session. */
export const api = createApiClient({
  tokens: browserTokenStore,
  onSessionExpired: () => endSession('expired'),
  onCallCompleted: (sample) => requestTiming.record(sample),
});
