// Two builds (or two settings) of the server side by side on the same host, in turns. This
// host's speed swings by up to 2× within an afternoon, more than most changes are worth, so a
// before/after made minutes apart says little. Here both servers run at once and each line is
// measured in short slices taken alternately (A B, then B A, ...): a swing falls on both alike,
// and the bare SELECT, the same program on both sides, shows how far apart two equal things
// come out. Prints each side's mean req/s, p95 and CPU a request by process (server,
// PostgreSQL, load), and B against A.
//
//   npm run bench:ab -- --base HEAD                 # A: the commit, B: the working tree
//   npm run bench:ab -- --env-b '{"LOG_LEVEL":"warn"}'   # one build, two settings
//   [--lines bare,ticketList,inboxList,chatRoom,search,seasonal,seasonalFiltered,usersMe] [--rounds 6] [--seconds 4]
//   [--connections 16] [--out FILE]   (the slices and means as JSON)
//   [--accept-encoding 'gzip, deflate, br, zstd']   (sent with every request, as a browser does;
//   gzipped answers are decoded by the load process)
//
// `--base` checks the commit out in a temporary git worktree that shares this checkout's
// node_modules, so the workspace packages (contracts) are the working tree's on both sides.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchDatabaseUrl, parseFlags } from './lib/bench-db';
import { startCpuCount } from './lib/cpu';
import { searchWords, tableFilters } from './lib/list-filters';
import { type LoadTarget, runLoad } from './lib/load';
import { ownerOfBigClient } from './lib/owner-api';
import {
  freePort,
  type RunningProcess,
  repoRoot,
  startScriptProcess,
  startServerProcess,
} from './lib/processes';
import { bigClientSlug, giantRoomName, seasonalKeyword } from './seed-names';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const rounds = Number(flags.rounds ?? 6);
const seconds = Number(flags.seconds ?? 4);
const connections = Number(flags.connections ?? 16);
const lines = (flags.lines ?? 'bare,ticketList,inboxList,chatRoom').split(',');
const envOf = (flag: string | undefined): Record<string, string> => (flag ? JSON.parse(flag) : {});
const sides = { A: envOf(flags['env-a']), B: envOf(flags['env-b']) };
const acceptEncoding = flags['accept-encoding'];

/** The base commit's worktree, made beside the system's temp files and removed at the end. */
function worktreeOf(revision: string): string {
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), 'omni-ab-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', folder, revision], { cwd: repoRoot, stdio: 'ignore' });
  for (const modules of ['node_modules', 'apps/server/node_modules']) {
    if (existsSync(path.join(repoRoot, modules)))
      symlinkSync(path.join(repoRoot, modules), path.join(folder, modules));
  }
  return folder;
}
const baseTree = flags.base ? worktreeOf(flags.base) : undefined;

type Side = 'A' | 'B';
interface Slice {
  rps: number;
  p95: number;
  server: number;
  database: number;
  load: number;
  bytes: number;
}
const slices: Record<string, Record<Side, Slice[]>> = {};
const warmupRequests = 200;
const started: RunningProcess[] = [];
try {
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  const client = (await database.query('select id from clients where slug = $1', [bigClientSlug])).rows[0];
  if (!client) throw new Error(`no client "${bigClientSlug}": run bench:seed first`);
  const giant = (
    await database.query('select id from chat_rooms where client_id = $1 and name = $2', [
      client.id,
      giantRoomName,
    ])
  ).rows[0];
  const bareIds = (await database.query('select id from tickets order by id limit 2000')).rows.map(
    (row) => row.id,
  );
  await database.end();

  const start = async (launch: Promise<RunningProcess>) => {
    const running = await launch;
    started.push(running);
    return running;
  };
  const servers = {
    A: await start(startServerProcess({ databaseUrl, port: await freePort(), root: baseTree, env: sides.A })),
    B: await start(startServerProcess({ databaseUrl, port: await freePort(), env: sides.B })),
  };
  const bareEnv = (side: 'A' | 'B') => ({ DATABASE_URL: databaseUrl, ...sides[side] });
  const bare = {
    A: await start(
      startScriptProcess({ script: 'bench/lib/bare-server.ts', port: await freePort(), env: bareEnv('A') }),
    ),
    B: await start(
      startScriptProcess({ script: 'bench/lib/bare-server.ts', port: await freePort(), env: bareEnv('B') }),
    ),
  };

  const { token } = await ownerOfBigClient(servers.A.url);
  const as = (paths: string[]): LoadTarget[] =>
    paths.map((target) => ({ path: target, headers: { authorization: `Bearer ${token}` } }));
  const targets: Record<string, LoadTarget[]> = {
    bare: bareIds.map((id) => ({ path: `/bare/select?id=${id}` })),
    ticketList: as(
      Object.values(tableFilters()).map((filter) => `/api/ticket/ticket/list?${filter}&pageSize=50`),
    ),
    inboxList: as(
      ['tab=all', 'tab=unassigned', 'tab=mine', 'tab=all&mediaPlatform=WAP,IGM'].map(
        (filter) => `/api/csp/chatRoom?${filter}&pageSize=50`,
      ),
    ),
    chatRoom: as([`/api/csp/chat?roomId=${giant.id}&limit=50`]),
    search: as(searchWords.map((keyword) => `/api/ticket/search?keyword=${keyword}&pageSize=50`)),
    // The word of last spring alone, and with a filter that drops some of its matches.
    seasonal: as([`/api/ticket/search?keyword=${seasonalKeyword}&pageSize=50`]),
    seasonalFiltered: as(
      ['mediaPlatform=WAP', 'status=CLOSED'].map(
        (filter) => `/api/ticket/search?keyword=${seasonalKeyword}&${filter}&pageSize=50`,
      ),
    ),
    usersMe: as(['/api/identity/users/me']),
  };
  for (const line of lines) if (!targets[line]) throw new Error(`unknown line "${line}"`);

  for (let round = 0; round < rounds; round += 1) {
    for (const line of lines) {
      const order: Side[] = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const side of order) {
        const serving = line === 'bare' ? bare[side] : servers[side];
        const cpu = startCpuCount([serving.pid]);
        const result = await runLoad({
          baseUrls: [serving.url],
          connections,
          durationSeconds: seconds,
          warmupRequests,
          targets: targets[line],
          ...(acceptEncoding ? { headers: { 'accept-encoding': acceptEncoding } } : {}),
        });
        if (result.failures > 0)
          throw new Error(
            `${line} on ${side}: ${result.failures} failed (${JSON.stringify(result.statuses)})`,
          );
        // The servers' and PostgreSQL's CPU is counted over the warm-up too.
        const used = cpu.end(result.count + warmupRequests);
        slices[line] ??= { A: [], B: [] };
        slices[line][side].push({
          rps: result.rps,
          p95: result.p95,
          server: used.serverMs,
          database: used.databaseMs,
          load: result.loadCpuMs ?? 0,
          bytes: result.bodyBytes ?? 0,
        });
      }
    }
    console.log(`round ${round + 1} of ${rounds} done`);
  }
} finally {
  await Promise.all(started.map((running) => running.stop()));
  if (baseTree)
    execFileSync('git', ['worktree', 'remove', '--force', baseTree], { cwd: repoRoot, stdio: 'ignore' });
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const describe = (side: Slice[]) => {
  const of = (key: keyof Slice) => mean(side.map((slice) => slice[key]));
  const cpu = of('server') + of('database') + of('load');
  return {
    text: `${of('rps').toFixed(0).padStart(5)} req/s  p95 ${of('p95').toFixed(1).padStart(5)} ms  CPU ${cpu.toFixed(2)} (server ${of('server').toFixed(2)}, PostgreSQL ${of('database').toFixed(2)}, load ${of('load').toFixed(2)}) ms  ${(of('bytes') / 1024).toFixed(1)} KB a request`,
    rps: of('rps'),
    cpu,
  };
};
console.log(`\nA: ${flags.base ? `commit ${flags.base}` : 'the working tree'} ${JSON.stringify(sides.A)}`);
console.log(`B: the working tree ${JSON.stringify(sides.B)}`);
console.log(
  `${rounds} rounds of ${seconds} s slices, ${connections} connections${acceptEncoding ? `, accept-encoding: ${acceptEncoding}` : ''}\n`,
);
for (const [line, { A, B }] of Object.entries(slices)) {
  const a = describe(A);
  const b = describe(B);
  console.log(`${line.padEnd(11)} A ${a.text}`);
  console.log(`${''.padEnd(11)} B ${b.text}`);
  console.log(
    `${''.padEnd(11)}   B/A: req/s ${(b.rps / a.rps).toFixed(2)}, CPU a request ${(b.cpu / a.cpu).toFixed(2)}`,
  );
}
if (flags.out) {
  const summary = Object.fromEntries(
    Object.entries(slices).map(([line, bySide]) => [
      line,
      { A: describe(bySide.A), B: describe(bySide.B), slices: bySide },
    ]),
  );
  const header = {
    date: new Date().toISOString(),
    base: flags.base ?? null,
    sides,
    rounds,
    seconds,
    connections,
    acceptEncoding: acceptEncoding ?? null,
  };
  writeFileSync(flags.out, `${JSON.stringify({ header, lines: summary }, null, 2)}\n`);
  console.log(`\nwritten to ${flags.out}`);
}
process.exit(0);
