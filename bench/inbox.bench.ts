// The inbox's server-side figures through the real HTTP API, each beside the bare limit of the
// same run (bench/lib/bare-server.ts): ticket list and inbox pages with filters, later pages by
// keyset, opening the 100,000-message room, keyword search, users/me, and agents sending.
// The servers and the load generator each run in their own process.
//
//   npm run bench:inbox -- [--database-url URL] [--duration 10] [--connections 16]
//                          [--processes 1|2] [--out bench/results/<name>.json] [--probe-requests 20]
//                          [--statement-timeout 30] [--allow-migrate] [--only chatRoom,search]
//                          [--rate 400 | --rate 50%]   (each read again in an open loop: at that rate,
//                          or at that share of what the line served in the closed loop)
//                          [--accept-encoding 'gzip, deflate, br, zstd']   (asked as a browser asks:
//                          the product and the bare pages answer gzipped, the load decodes)
//
// The database is the one bench/seed.ts filled (bench-big and its giant room). The bench only
// reads it, except for the messages its agents send and the bare INSERT's own table.

import os from 'node:os';
import path from 'node:path';
import { benchDatabaseUrl, parseFlags, vacuumWhenAutovacuumIsOff, warmDatabaseCache } from './lib/bench-db';
import { inboxLoad, pathOf, warnFailures } from './lib/inbox-load';
import { as, connectReadOnly, discoverTargets, readInboxDataset } from './lib/inbox-targets';
import { backlogAfterLoad, describeBacklog, dropLeftoverJobs } from './lib/job-backlog';
import { tableFilters as benchTableFilters } from './lib/list-filters';
import type { LoadTarget } from './lib/load';
import {
  freePort,
  type RunningProcess,
  repoRoot,
  startScriptProcess,
  startServerProcess,
} from './lib/processes';
import {
  bareFigure,
  type Figure,
  machine,
  maskedUrl,
  printAtRate,
  printHeader,
  printProbes,
  type RunHeader,
  readFigure,
  writeFigure,
  writeResults,
} from './lib/report';
import { seasonalKeyword } from './seed-names';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const durationSeconds = Number(flags.duration ?? 10);
const connections = Number(flags.connections ?? 16);
const processCount = Number(flags.processes ?? 1);
const probeRequests = Number(flags['probe-requests'] ?? 20);
/** Seconds of each read's own load before its figure is taken (inbox-load.ts); none unless asked for. */
const warmupSeconds = Number(flags.warmup ?? 0);
const statementTimeoutSeconds = Number(flags['statement-timeout'] ?? 30);
/**
 * Each read again in an open loop, beside the bare SELECT in the same: `--rate 400` at 400
 * requests a second for every line, `--rate 50%` at half of what each line (and the bare
 * SELECT) served at `connections` in the closed loop just before.
 */
const rateFlag = flags.rate ?? null;
const rateFraction = rateFlag?.endsWith('%') ? Number(rateFlag.slice(0, -1)) / 100 : null;
const fixedRate = rateFlag !== null && rateFraction === null ? Number(rateFlag) : null;
const rateIsValid = rateFraction !== null ? rateFraction > 0 && rateFraction <= 1 : (fixedRate ?? 1) > 0;
if (!rateIsValid) {
  throw new Error("--rate is requests a second (400) or a share of each line's closed-loop rate (50%)");
}
/** The open loop's rate for a line that served `closedRps` in the closed loop, if any. */
const openRateFor = (closedRps: number): number | null =>
  fixedRate ?? (rateFraction === null ? null : Math.max(1, Math.round(closedRps * rateFraction)));
if (processCount !== 1 && processCount !== 2) throw new Error('--processes is 1 or 2');
/** Only these lines (by key, e.g. `chatRoom,ticketList`) beside the bare ones: for profiling one target. */
const only = flags.only ? new Set(flags.only.split(',')) : null;
/** Sent with every request when given; the bare server then compresses as the product does. */
const acceptEncoding = flags['accept-encoding'] ?? null;

/**
 * The servers' database URL with a statement timeout: a query that runs for minutes at full size
 * answers 500 (counted as a failure) instead of holding the shared machine for the rest of the run.
 */
function withStatementTimeout(url: string, seconds: number): string {
  const limited = new URL(url);
  limited.searchParams.set('options', `-c statement_timeout=${Math.round(seconds * 1000)}`);
  return limited.toString();
}
const serverDatabaseUrl = withStatementTimeout(databaseUrl, statementTimeoutSeconds);

// Read-only SQL: the header's facts, the giant room, and ids the API could not give.
const sql = await connectReadOnly(databaseUrl);
const dataset = await readInboxDataset(sql, databaseUrl, flags['allow-migrate'] === 'true');
const { facts, giant } = dataset;

const header: RunHeader = {
  ...machine(),
  database: maskedUrl(databaseUrl),
  postgres: `PostgreSQL ${facts.version}`,
  databaseSize: facts.size,
  tickets: Number(facts.tickets),
  messages: Number(facts.messages),
  processes: processCount,
  connections,
  durationSeconds,
  warmupSeconds,
  statementTimeoutSeconds,
  acceptEncoding,
};
const out = path.resolve(
  repoRoot,
  flags.out ??
    (only
      ? path.join(os.tmpdir(), `inbox-only-${header.tickets}.json`)
      : `bench/results/inbox-${header.tickets}${processCount === 2 ? '-2p' : ''}.json`),
);
printHeader(header);

const running: RunningProcess[] = [];
const stopAll = () => Promise.all(running.splice(0).map((child) => child.stop()));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(130)));
}

await vacuumWhenAutovacuumIsOff(databaseUrl);
await warmDatabaseCache(databaseUrl);
const leftoverJobs = await dropLeftoverJobs(databaseUrl, new Date());
if (leftoverJobs > 0) console.log(`  dropped ${leftoverJobs} jobs an earlier bench server left waiting`);
try {
  const bare = await startScriptProcess({
    script: 'bench/lib/bare-server.ts',
    port: await freePort(),
    env: { DATABASE_URL: serverDatabaseUrl, ...(acceptEncoding ? { BARE_COMPRESS: '1' } : {}) },
  });
  running.push(bare);
  const servers: RunningProcess[] = [];
  for (let i = 0; i < processCount; i += 1) {
    // The first process also runs the jobs (message delivery); a second one only serves HTTP.
    const server = await startServerProcess({
      databaseUrl: serverDatabaseUrl,
      port: await freePort(),
      role: i === 0 ? 'all' : 'web',
      env: { ACCESS_TOKEN_TTL_SECONDS: '86400' },
    });
    servers.push(server);
    running.push(server);
  }
  const api = servers[0].url;

  // What each line asks for, found through the API as the owner and the agents find it.
  const {
    owner,
    agents,
    inboxTargets,
    cursorTargets,
    cursorProbes,
    oldRooms,
    keywords,
    searchTargets,
    bareSelectTargets,
    bareInsertTargets,
    barePageTargets,
    bareRoomTargets,
    sendTargets,
  } = await discoverTargets(api, sql, dataset);
  await sql.end();

  // First pages of the ticket table, with realistic filters.
  const tableFilters = Object.values(benchTableFilters()).map(
    (filter) => `/api/ticket/ticket/list?${filter}&pageSize=50`,
  );

  const { measure, probe, atRate } = inboxLoad({
    servers,
    bare,
    connections,
    durationSeconds,
    probeRequests,
    warmupSeconds,
    ...(acceptEncoding ? { headers: { 'accept-encoding': acceptEncoding } } : {}),
  });
  const figures: Figure[] = [];

  const bareSelect = await measure(bareSelectTargets, [bare.url]);
  figures.push(bareFigure('bareSelect', 'bare SELECT (one indexed row)', bareSelect));
  const bareInsert = await measure(bareInsertTargets, [bare.url]);
  figures.push(bareFigure('bareInsert', 'bare INSERT (one message-shaped row)', bareInsert));
  // The least a page of the lists' or the room's size costs (bare-server.ts), for the reads' second ratio.
  const barePage = await measure(barePageTargets, [bare.url]);
  figures.push(bareFigure('barePage', "bare page (50 tickets' stored JSON)", barePage));
  const bareRoom = await measure(bareRoomTargets, [bare.url]);
  figures.push(bareFigure('bareRoom', 'bare room (newest 50 messages)', bareRoom));
  const shapes = { barePage, bareRoom };
  const bareRate = openRateFor(bareSelect.rps);
  const bareSelectAtRate = bareRate === null ? null : await atRate(bareRate, bareSelectTargets, [bare.url]);
  if (bareSelectAtRate && bareRate !== null) {
    const atRateFigure = { rate: bareRate, result: bareSelectAtRate, bareSelect: bareSelectAtRate };
    printAtRate(atRateFigure);
    const bareFigureOfSelect = figures.find((figure) => figure.key === 'bareSelect');
    if (bareFigureOfSelect) bareFigureOfSelect.atRate = atRateFigure;
  }

  /** A read under load, then each probe target alone (by default: every target, when several rotate). */
  const read = async (
    key: string,
    label: string,
    targets: LoadTarget[],
    probeTargets = targets.length > 1 ? targets : [],
    shape?: keyof typeof shapes,
  ) => {
    if (only && !only.has(key)) return;
    if (targets.length === 0) return console.log(`${label.padEnd(46)} skipped: nothing to ask for`);
    const result = await measure(targets);
    const figure = readFigure(key, label, result, bareSelect);
    if (shape) {
      figure.shape = { key: shape, ratio: result.p95 / shapes[shape].p95 };
      console.log(
        `${''.padEnd(47)}${figure.shape.ratio.toFixed(1)}× the ${shape === 'barePage' ? 'bare page' : 'bare room'}'s p95`,
      );
    }
    warnFailures(label, result);
    const rate = openRateFor(result.rps);
    if (bareSelectAtRate && rate !== null) {
      const paced = await atRate(rate, targets);
      const bareSameRate = await atRate(rate, bareSelectTargets, [bare.url]);
      figure.atRate = { rate, result: paced, bareSelect: bareSelectAtRate, bareSameRate };
      printAtRate(figure.atRate);
      warnFailures(`${label} at ${rate} req/s`, paced);
    }
    if (probeTargets.length > 0) {
      figure.probes = await probe(probeTargets, pathOf);
      printProbes(figure.probes, bareSelect);
    }
    figures.push(figure);
  };
  await read(
    'ticketList',
    `ticket list page 1 (${tableFilters.length} filters)`,
    tableFilters.map((target) => as(owner, { path: target })),
    undefined,
    'barePage',
  );
  await read(
    'inboxList',
    `inbox page 1 (${inboxTargets.length} tabs/filters)`,
    inboxTargets,
    undefined,
    'barePage',
  );
  await read(
    'keysetPage',
    `later page by keyset (${cursorTargets.length} cursors)`,
    cursorTargets,
    cursorProbes,
    'barePage',
  );
  await read(
    'chatRoom',
    'open giant room: newest 50 messages',
    [as(owner, { path: `/api/csp/chat?roomId=${giant.id}&limit=50` })],
    undefined,
    'bareRoom',
  );
  await read('chatRoomDetail', 'giant room: chatRoom/detail', [
    as(owner, { path: `/api/csp/chatRoom/detail?ticketId=${giant.ticketId}` }),
  ]);
  await read(
    'chatRoomOrdinary',
    `open a months-old room: newest 50 (${oldRooms.size} rooms)`,
    [...oldRooms].map((roomId) => as(owner, { path: `/api/csp/chat?roomId=${roomId}&limit=50` })),
    [],
    'bareRoom',
  );
  await read('search', `search first 50 hits (${keywords.length} keywords)`, searchTargets);
  await read('usersMe', 'GET users/me', [as(owner, { path: '/api/identity/users/me' })]);

  const sendStartedAt = new Date();
  const sent = only && !only.has('sendMessage') ? null : await measure(sendTargets, undefined, false);
  if (sent) {
    const sendFigure = writeFigure(
      'sendMessage',
      `agents send (${agents.length} agents, ${sendTargets.length} chats)`,
      sent,
      bareInsert,
    );
    warnFailures('send', sent);
    // Each public message starts its delivery job (inbox.jobs.ts): they must keep up with the sends.
    sendFigure.jobs = await backlogAfterLoad(databaseUrl, sendStartedAt);
    console.log(`${''.padEnd(47)}job queue: ${describeBacklog(sendFigure.jobs)}`);
    sendFigure.probes = await probe(sendTargets.slice(0, 1), () => 'one agent sending, alone');
    printProbes(sendFigure.probes, bareSelect);
    figures.push(sendFigure);
  }

  // Apart from the mix, and last: a word common only in tickets older than 240 days
  // (seed-names.ts). Its page walks most of the client's tickets through PostgreSQL's buffers:
  // run before users/me and the sends, those came out at about half their usual rate.
  const seasonalSearch = [as(owner, { path: `/api/ticket/search?keyword=${seasonalKeyword}&pageSize=50` })];
  await read(
    'searchSeasonal',
    `search a word of last spring only (${seasonalKeyword})`,
    seasonalSearch,
    seasonalSearch,
  );
  const bareSelectAgain = await measure(bareSelectTargets, [bare.url]);
  figures.push(bareFigure('bareSelectEnd', 'bare SELECT again, at the end', bareSelectAgain));
  const bareInsertAgain = await measure(bareInsertTargets, [bare.url]);
  figures.push(bareFigure('bareInsertEnd', 'bare INSERT again, at the end', bareInsertAgain));

  writeResults(out, header, figures);
  console.log(`\nwritten to ${path.relative(repoRoot, out)}`);
} finally {
  await stopAll();
}
