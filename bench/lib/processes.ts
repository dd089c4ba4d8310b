import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');

export interface RunningProcess {
  url: string;
  pid: number;
  /** Resident memory of the process now, from /proc. */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** A port nobody listens on now (other benches may run servers at the same time). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A fixed secret shared by every server process of one bench run, so their tokens agree. */
export const benchJwtSecret = 'bench-secret-bench-secret-bench-secret-0123456789';

async function waitForHealth(url: string, child: ChildProcess, label: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${label} exited with ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${label} did not become healthy within 60 s`);
}

function track(child: ChildProcess, url: string): RunningProcess {
  return {
    url,
    pid: child.pid ?? 0,
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      });
    },
  };
}

/**
 * Starts the real server (apps/server/src/main.ts) as its own process on PostgreSQL, without
 * the demo seed. `role` is all, web or worker.
 */
export async function startServerProcess(options: {
  databaseUrl: string;
  /** The checkout whose server runs (another commit's worktree, for bench:ab); this one by default. */
  root?: string;
  port: number;
  role?: 'all' | 'web' | 'worker';
  env?: Record<string, string>;
  /** Extra Node flags for the server's process (e.g. --cpu-prof, not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
}): Promise<RunningProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'omni-bench-server-'));
  const child = spawn(
    process.execPath,
    [
      // BENCH_SERVER_NODE_ARGS profiles any bench's server: `--cpu-prof --cpu-prof-dir=/tmp/prof`.
      ...(options.nodeArgs ?? process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      path.join(options.root ?? repoRoot, 'apps/server/src/main.ts'),
      `--role=${options.role ?? 'all'}`,
    ],
    {
      cwd: options.root ?? repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: options.databaseUrl,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'error',
        LOGIN_RATE_LIMIT: '1000000',
        JWT_SECRET: benchJwtSecret,
        ...options.env,
      },
    },
  );
  const url = `http://127.0.0.1:${options.port}`;
  await waitForHealth(url, child, `server on ${options.port}`).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return track(child, url);
}

/** Starts a bench/lib script (a bare Fastify server) as its own process; it must serve /api/health. */
export async function startScriptProcess(options: {
  script: string;
  port: number;
  env?: Record<string, string>;
}): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, options.script)], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(options.port), ...options.env },
  });
  const url = `http://127.0.0.1:${options.port}`;
  await waitForHealth(url, child, options.script).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return track(child, url);
}
