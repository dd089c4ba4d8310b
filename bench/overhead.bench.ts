// Request overhead of an authenticated call: GET /api/identity/users/me on the real server,
// beside a bare Fastify handler that verifies the same token and runs the same join, without
// and with entering the tenant. Each server and the load generator run in their own process.
// Usage: npm run bench:overhead -- [--database-url URL] [--duration 10] [--connections 16]
//        [--rounds 1] [--email agent1@bench-big.test] [--profile DIR]
// --profile writes a V8 CPU profile of the real server's process into DIR when it stops. Each line
// also gives the serving process's own CPU time per request (from /proc), steadier than req/s
// when the machine is shared.
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDatabaseUrl, parseFlags } from './lib/bench-db';
import { formatResult, type LoadResult, runLoad } from './lib/load';
import {
  benchJwtSecret,
  freePort,
  type RunningProcess,
  startScriptProcess,
  startServerProcess,
} from './lib/processes';

const flags = parseFlags(process.argv.slice(2));
// The same database as every other bench (`bench` unless told), which bench:seed creates.
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const durationSeconds = Number(flags.duration ?? 10);
const connections = Number(flags.connections ?? 16);
const rounds = Number(flags.rounds ?? 1);
const email = flags.email ?? 'agent1@bench-big.test';
const password = flags.password ?? 'Bench1234!';
const profileDir = flags.profile ? path.resolve(flags.profile) : null;

/** CPU time (user + system) the process has used so far, in milliseconds, from /proc. */
function cpuMillis(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/identity/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok)
    throw new Error(`sign-in as ${email} failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { accessToken?: string };
  if (!body.accessToken) throw new Error(`sign-in as ${email} gave no access token (two-step sign-in?)`);
  return body.accessToken;
}

if (profileDir) mkdirSync(profileDir, { recursive: true });
const started: RunningProcess[] = [];
try {
  const server = await startServerProcess({
    databaseUrl,
    port: await freePort(),
    role: 'web',
    nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  started.push(server);
  const bare = await startScriptProcess({
    script: 'bench/lib/bare-identity-server.ts',
    port: await freePort(),
    env: { DATABASE_URL: databaseUrl, JWT_SECRET: benchJwtSecret },
  });
  started.push(bare);

  const token = await signIn(server.url);
  const headers = { authorization: `Bearer ${token}` };
  const lines = [
    { label: 'bare: token + join', url: bare.url, path: '/bare/me' },
    { label: 'bare: token + tenant transaction + join', url: bare.url, path: '/bare/tenant/me' },
    { label: 'GET /api/identity/users/me', url: server.url, path: '/api/identity/users/me' },
  ];

  console.log(
    `database ${new URL(databaseUrl).pathname.slice(1)}; node ${process.version}; ${os.cpus().length} cores; ` +
      `${connections} connections, ${durationSeconds} s per line, load in its own process`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    if (rounds > 1) console.log(`round ${round}`);
    const results: LoadResult[] = [];
    const cpuPerRequest: number[] = [];
    for (const line of lines) {
      const spec = { baseUrls: [line.url], connections, headers, targets: [{ path: line.path }] };
      await runLoad({ ...spec, requests: 2000 });
      // The server's own CPU per request: steadier than req/s on a machine shared with other work.
      const pid = line.url === server.url ? server.pid : bare.pid;
      const cpuBefore = cpuMillis(pid);
      const result = await runLoad({ ...spec, durationSeconds });
      cpuPerRequest.push((cpuMillis(pid) - cpuBefore) / result.count);
      results.push(result);
    }
    const [bareJoin, bareTenant, me] = results;
    const cpu = (index: number) => `  cpu ${(cpuPerRequest[index] * 1000).toFixed(0)} µs/req`;
    console.log(formatResult(lines[0].label, bareJoin) + cpu(0));
    console.log(formatResult(lines[1].label, bareTenant, bareJoin) + cpu(1));
    console.log(formatResult(lines[2].label, me, bareTenant) + cpu(2));
    console.log(
      `users/me served ${(me.rps / bareTenant.rps).toFixed(2)}× the requests a second of the bare tenant handler, ` +
        `${(me.rps / bareJoin.rps).toFixed(2)}× those of the bare handler without tenant`,
    );
  }
} finally {
  for (const running of started.reverse()) await running.stop();
}
if (profileDir) console.log(`CPU profile of the server written to ${profileDir}`);
