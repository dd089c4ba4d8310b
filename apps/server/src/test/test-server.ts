import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type AppConfig, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { type Server, type ServerOptions, startServer } from '../server';

/**
 * A fresh database for one test file: a new PostgreSQL database when DATABASE_URL is set
 * (dropped afterwards), otherwise nothing, and the server opens PGlite under its DATA_DIR.
 */
export async function createTestDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { url: undefined, drop: async () => undefined };
  const name = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A migrated database of its own for one test file (`createTestDatabaseUrl`), opened without a
 * server; `close` closes it and drops it.
 */
export async function openTestDatabase(
  poolSize = 1,
): Promise<{ database: DatabaseHandle; close(): Promise<void> }> {
  const test = await createTestDatabaseUrl();
  const database = await openDatabase({ databaseUrl: test.url, poolSize });
  await database.migrate();
  return {
    database,
    async close() {
      await database.close();
      await test.drop();
    },
  };
}

export interface TestServer extends Server {
  /** Calls the API over real HTTP; answers status, parsed body and headers. */
  request<Body = Record<string, unknown>>(
    method: string,
    pathname: string,
    options?: { body?: unknown; token?: string; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Body; headers: Headers }>;
  /** Signs a demo (or any) user in and returns the token pair. */
  login(email: string, password?: string): Promise<{ accessToken: string; refreshToken: string }>;
  /** Stops the server and removes its data directory and database. */
  close(): Promise<void>;
}

export interface TestServerOptions extends ServerOptions {
  env?: Record<string, string>;
  /** Keep and reuse this DATA_DIR (restart tests). */
  dataDir?: string;
  databaseUrl?: string;
}

/** Starts the real product on a random port with a throw-away data directory and database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'omni-test-'));
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabaseUrl();
  const config: AppConfig = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    // The search words' drainer waits for the test (`server.searchWords.tick()`, or a keyword
    // search, which drains its client first) instead of racing it on a timer.
    SEARCH_WORDS_INTERVAL_MS: '60000',
    // The GIN pending lists' merges likewise (`server.ginPendingLists.round()`).
    GIN_PENDING_LISTS_INTERVAL_MS: '0',
    // Webhooks' kept updates that are due again are taken when a test asks
    // (`server.inboundJournal.sweepNow()`); `settled()` waits for the ones just kept.
    INBOUND_JOURNAL_SWEEP_MS: '0',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const server = await startServer(config, options);

  const request: TestServer['request'] = async (method, pathname, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.token) headers.authorization = `Bearer ${requestOptions.token}`;
    let payload: string | undefined = requestOptions.rawBody;
    if (requestOptions.body !== undefined) payload = JSON.stringify(requestOptions.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${server.url}${pathname}`, { method, headers, body: payload });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: body as never, headers: response.headers };
  };

  return {
    ...server,
    request,
    async login(email, password = 'Demo1234!') {
      const response = await request<{ accessToken: string; refreshToken: string }>(
        'POST',
        '/api/identity/auth/login',
        {
          body: { email, password },
        },
      );
      if (response.status !== 200) throw new Error(`login ${email} failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async close() {
      await server.stop();
      await database.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
