// Identity API latency: sign-in (argon2id-bound) and GET users/me (token check + one tenant
// transaction), against the real server on PGlite, or PostgreSQL with DATABASE_URL.
// Usage: npx tsx bench/identity.bench.ts [requests=2000] [concurrency=16]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config';
import { startServer } from '../apps/server/src/server';

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 16);

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  return `p50 ${at(50)} ms  p95 ${at(95)} ms  p99 ${at(99)} ms  max ${sorted.at(-1)?.toFixed(1)} ms`;
}

async function run(
  label: string,
  count: number,
  parallel: number,
  call: () => Promise<Response>,
): Promise<void> {
  const samples: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        const t = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (!response.ok) failures += 1;
        samples.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label.padEnd(22)} n=${count} c=${parallel}  ${(count / seconds).toFixed(0)} req/s  ${percentiles(samples)}  failures=${failures}`,
  );
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'omni-bench-'));
const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  LOGIN_RATE_LIMIT: '100000',
});
const server = await startServer(config);
try {
  const login = () =>
    fetch(`${server.url}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'agent1@demo.test', password: 'Demo1234!' }),
    });
  const { accessToken } = (await (await login()).json()) as { accessToken: string };
  const me = () =>
    fetch(`${server.url}/api/identity/users/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  const health = () => fetch(`${server.url}/api/health`);

  console.log(`database: ${server.database.driver}; node ${process.version}; ${os.cpus().length} cores`);
  await run('warm-up users/me', 200, concurrency, me);
  await run('POST auth/login', Math.max(50, Math.floor(total / 20)), 4, login);
  await run('GET users/me', total, concurrency, me);
  await run('GET health', total, concurrency, health);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
