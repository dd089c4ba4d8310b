import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessages } from '@app/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, refreshPath } from './api-client';
import type { StoredTokens, TokenStore } from './session';

/**
 * A small real HTTP server standing in for the identity API: one valid access token at a
 * time, refresh tokens that work once (like the real rotation), and a slow refresh so
 * concurrent requests really overlap with it.
 */
const backend = {
  generation: 1,
  refreshCalls: 0,
  refreshAccepted: true,
  dataCalls: [] as string[],
  reset() {
    this.generation = 1;
    this.refreshCalls = 0;
    this.refreshAccepted = true;
    this.dataCalls = [];
  },
};

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => resolve(text ? JSON.parse(text) : null));
  });
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const unauthorized = { statusCode: 401, error: 'Unauthorized', message: errorMessages.unauthorized };
    if (request.method === 'POST' && request.url === refreshPath) {
      backend.refreshCalls += 1;
      const body = (await readBody(request)) as { refreshToken?: string };
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!backend.refreshAccepted || body.refreshToken !== `refresh-${backend.generation}`) {
        return reply(401, unauthorized);
      }
      backend.generation += 1;
      return reply(200, {
        accessToken: `access-${backend.generation}`,
        refreshToken: `refresh-${backend.generation}`,
        tokenType: 'Bearer',
        expiresIn: 900,
        refreshTokenExpiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
    }
    if (request.url?.startsWith('/api/data')) {
      const authorization = request.headers.authorization ?? '';
      backend.dataCalls.push(authorization);
      if (authorization !== `Bearer access-${backend.generation}`) return reply(401, unauthorized);
      return reply(200, { path: request.url });
    }
    if (request.url === '/api/bad-request') {
      return reply(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: errorMessages.currentPasswordIncorrect,
      });
    }
    if (request.url === '/api/plain-failure') {
      response.writeHead(502);
      return response.end();
    }
    return reply(404, { statusCode: 404, error: 'Not Found', message: errorMessages.routeNotFound });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function memoryTokens(initial: StoredTokens | null): TokenStore & { current: StoredTokens | null } {
  return {
    current: initial,
    read() {
      return this.current;
    },
    write(tokens) {
      this.current = tokens;
    },
  };
}

describe('api client', () => {
  beforeEach(() => backend.reset());

  it('refreshes once for many concurrent 401s and retries every request with the new token', async () => {
    const tokens = memoryTokens({ accessToken: 'access-expired', refreshToken: 'refresh-1' });
    let expired = 0;
    const client = createApiClient({ baseUrl, tokens, onSessionExpired: () => expired++ });

    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => client.get<{ path: string }>('/api/data', { query: { n: i } })),
    );

    expect(backend.refreshCalls).toBe(1);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(results.map((result) => result.ok && result.data.path)).toEqual(
      Array.from({ length: 5 }, (_, i) => `/api/data?n=${i}`),
    );
    expect(tokens.current).toEqual({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(backend.dataCalls.filter((header) => header === 'Bearer access-expired')).toHaveLength(5);
    expect(backend.dataCalls.filter((header) => header === 'Bearer access-2')).toHaveLength(5);
    expect(expired).toBe(0);
  });

  it('does not refresh again for a 401 caused by a token that was already replaced', async () => {
    const tokens = memoryTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl, tokens, onSessionExpired: () => {} });
    expect(await client.refreshAfter('access-older')).toBe(true);
    expect(backend.refreshCalls).toBe(0);
  });

  it('ends the session once when the refresh token is refused', async () => {
    backend.refreshAccepted = false;
    const tokens = memoryTokens({ accessToken: 'access-expired', refreshToken: 'refresh-1' });
    let expired = 0;
    const client = createApiClient({
      baseUrl,
      tokens,
      onSessionExpired: () => {
        expired++;
        tokens.current = null;
      },
    });

    const results = await Promise.all([
      client.get('/api/data'),
      client.get('/api/data'),
      client.get('/api/data'),
    ]);

    expect(backend.refreshCalls).toBe(1);
    expect(expired).toBe(1);
    expect(tokens.current).toBeNull();
    for (const result of results) {
      expect(result).toEqual({
        ok: false,
        error: { statusCode: 401, error: 'Unauthorized', message: errorMessages.unauthorized },
      });
    }
  });

  it('never refreshes for calls made without the bearer token, such as sign-in', async () => {
    const tokens = memoryTokens({ accessToken: 'access-expired', refreshToken: 'refresh-1' });
    const client = createApiClient({ baseUrl, tokens, onSessionExpired: () => {} });
    const result = await client.get('/api/data', { auth: false });
    expect(result.ok).toBe(false);
    expect(backend.refreshCalls).toBe(0);
  });

  it('returns failures as the error object instead of throwing', async () => {
    const tokens = memoryTokens(null);
    const client = createApiClient({ baseUrl, tokens, onSessionExpired: () => {} });

    expect(await client.put('/api/bad-request', { currentPassword: 'x' })).toEqual({
      ok: false,
      error: { statusCode: 400, error: 'Bad Request', message: errorMessages.currentPasswordIncorrect },
    });
    expect(await client.get('/api/plain-failure')).toEqual({
      ok: false,
      error: { statusCode: 502, error: 'error', message: errorMessages.generic },
    });

    const offline = createApiClient({ baseUrl: 'http://127.0.0.1:9', tokens, onSessionExpired: () => {} });
    expect(await offline.get('/api/anything')).toEqual({
      ok: false,
      error: { statusCode: 500, error: 'error', message: errorMessages.generic },
    });
  });
});
