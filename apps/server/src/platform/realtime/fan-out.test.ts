import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { openSocket } from '../../test/socket-client';
import { createTestDatabaseUrl } from '../../test/test-server';

const mainFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../main.ts');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${base} did not become healthy`);
}

// Two server processes share one PostgreSQL database; PGlite serves a single process.
describe.skipIf(!process.env.DATABASE_URL)('fan-out across processes (PostgreSQL)', () => {
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'omni-fanout-'));

  beforeAll(async () => {
    database = await createTestDatabaseUrl();
    // Two web processes serve HTTP and sockets; one worker process runs the jobs.
    for (const role of ['web', 'web', 'worker']) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', mainFile, `--role=${role}`], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      });
      children.push(child);
      if (role === 'worker') continue;
      const base = `http://127.0.0.1:${port}`;
      bases.push(base);
      await waitForHealth(base, child);
    }
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers an event raised on one process to sockets on both', async () => {
    const login = await fetch(`${bases[0]}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'agent1@demo.test', password: 'Demo1234!' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const sockets = await Promise.all(
      bases.map((base) => openSocket(`${base.replace('http', 'ws')}/ws?token=${accessToken}`)),
    );
    await Promise.all(sockets.map((socket) => socket.next((message) => message.type === 'hello')));

    const response = await fetch(`${bases[0]}/api/identity/pushnotif/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ status: 'OFFLINE' }),
    });
    expect(response.status).toBe(200);
    const received = await Promise.all(
      sockets.map((socket) => socket.next((message) => message.topic === 'agent.status_changed')),
    );
    expect(received.map((message) => message.payload?.status)).toEqual(['OFFLINE', 'OFFLINE']);
    expect(received[0].cursor).toBe(received[1].cursor);
    for (const socket of sockets) socket.socket.close();
  });

  it('runs jobs in the worker process: the sign-in is recorded on the user', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const recorded = await eventually(async () => {
        const result = await admin.query(
          "select last_sign_in_at from users where email = 'agent1@demo.test' and shared_login_user_id is null",
        );
        return (result.rows[0]?.last_sign_in_at as Date | null) ?? null;
      }, 30_000);
      expect(recorded).toBeInstanceOf(Date);
    } finally {
      await admin.end();
    }
  });
});
