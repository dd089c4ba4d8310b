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
//
// The database is the one bench/seed.ts filled (bench-big and its giant room). The bench only
// reads it, except for the messages its agents send and the bare INSERT's own table.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TicketListResponse, TicketSummary } from '@app/contracts';
import pg from 'pg';
import { benchDatabaseUrl, parseFlags, vacuumWhenAutovacuumIsOff } from './lib/bench-db';
import { startCpuCount } from './lib/cpu';
import { backlogAfterLoad, describeBacklog, dropLeftoverJobs } from './lib/job-backlog';
import { tableFilters as benchTableFilters, isoDaysAgo, searchWords } from './lib/list-filters';
import { type LoadResult, type LoadSpec, type LoadTarget, runLoad } from './lib/load';
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
  failureStatuses,
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
import { benchPassword, bigClientSlug, giantRoomName, seasonalKeyword } from './seed-names';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const durationSeconds = Number(flags.duration ?? 10);
const connections = Number(flags.connections ?? 16);
const processCount = Number(flags.processes ?? 1);
const probeRequests = Number(flags['probe-requests'] ?? 20);
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
const sql = new pg.Client({ connectionString: databaseUrl });
await sql.connect();
const rows = async <T>(text: string, values?: unknown[]) => (await sql.query(text, values)).rows as T[];
const one = async <T>(text: string, values?: unknown[]) => (await rows<T>(text, values))[0];

const bigClient = await one<{ id: string } | undefined>('select id from clients where slug = $1', [
  bigClientSlug,
]);
if (!bigClient)
  throw new Error(`no client "${bigClientSlug}" in ${maskedUrl(databaseUrl)}: run bench:seed first`);
const facts = await one<{ size: string; version: string; tickets: string; messages: string }>(
  `select pg_size_pretty(pg_database_size(current_database())) as size, current_setting('server_version') as version,
          (select count(*) from tickets where client_id = $1) as tickets,
          (select count(*) from messages where client_id = $1) as messages`,
  [bigClient.id],
);
const giant = await one<{ id: string; ticketId: number } | undefined>(
  `select id, current_ticket_id as "ticketId" from chat_rooms where client_id = $1 and name = $2`,
  [bigClient.id, giantRoomName],
);
if (!giant?.ticketId) throw new Error(`the room "${giantRoomName}" has no current ticket`);

// The server migrates on start. On a shared million-ticket database a new migration can run for
// many minutes, so it is applied on purpose beforehand, not by a bench run in passing.
const journal = JSON.parse(
  readFileSync(path.join(repoRoot, 'apps/server/src/db/migrations/meta/_journal.json'), 'utf8'),
) as { entries: Array<{ tag: string; when: number }> };
const applied = await one<{ last: string | null }>(
  'select max(created_at)::text as last from drizzle.__drizzle_migrations',
);
const pending = journal.entries.filter((entry) => entry.when > Number(applied.last ?? 0));
if (pending.length > 0 && flags['allow-migrate'] !== 'true') {
  await sql.end();
  throw new Error(
    `${maskedUrl(databaseUrl)} lacks ${pending.map((entry) => entry.tag).join(', ')}: the server would apply ` +
      'it on start. Migrate the bench database first, or pass --allow-migrate.',
  );
}

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
  statementTimeoutSeconds,
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
const leftoverJobs = await dropLeftoverJobs(databaseUrl, new Date());
if (leftoverJobs > 0) console.log(`  dropped ${leftoverJobs} jobs an earlier bench server left waiting`);
try {
  const bare = await startScriptProcess({
    script: 'bench/lib/bare-server.ts',
    port: await freePort(),
    env: { DATABASE_URL: serverDatabaseUrl },
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

  const signIn = async (email: string): Promise<string> => {
    const response = await fetch(`${api}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: benchPassword }),
    });
    const body = (await response.json()) as { accessToken?: string };
    if (!response.ok || !body.accessToken) {
      throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body)}`);
    }
    return body.accessToken;
  };
  /** A discovery read; a failure is printed (it is a bug the figures will show too) and gives null. */
  const tryGet = async <T>(token: string, target: string): Promise<T | null> => {
    const response = await fetch(`${api}${target}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.ok) return (await response.json()) as T;
    const text = (await response.text()).slice(0, 160);
    console.log(`  ! discovery: GET ${target.slice(0, 90)} answered ${response.status} ${text}`);
    return null;
  };
  const owner = await signIn(`owner@${bigClientSlug}.test`);
  const as = (token: string, target: Omit<LoadTarget, 'headers'>): LoadTarget => ({
    ...target,
    headers: { authorization: `Bearer ${token}` },
  });

  // Targets: first pages of the ticket table and the inbox, with realistic filters.
  const tableFilters = Object.values(benchTableFilters()).map(
    (filter) => `/api/ticket/ticket/list?${filter}&pageSize=50`,
  );

  // Agents with open chats of their own that still take a public reply, found through their inbox.
  // Enough chats that 16 senders seldom wait for one ticket's lock.
  const agents: Array<{ email: string; token: string; ticketIds: number[] }> = [];
  const chatCount = () => agents.reduce((sum, sender) => sum + sender.ticketIds.length, 0);
  for (let n = 1; n <= 200 && agents.length < 24 && chatCount() < 48; n += 1) {
    const email = `agent${n}@${bigClientSlug}.test`;
    const token = await signIn(email);
    const mine = await tryGet<TicketListResponse>(token, '/api/csp/chatRoom?tab=mine&pageSize=100');
    const ticketIds = mine
      ? mine.content.filter((ticket) => ticket.status === 'ASSIGNED' && !ticket.expired).map(({ id }) => id)
      : (
          await rows<{ id: number }>(
            `select t.id from tickets t join users u on u.id = t.assignee_id
              where t.client_id = $1 and u.email = $2 and t.status = 'ASSIGNED'
                and (t.expires_at is null or t.expires_at > now() + interval '1 hour')
              order by t.last_message_at desc limit 6`,
            [bigClient.id, email],
          )
        ).map(({ id }) => Number(id));
    if (ticketIds.length > 0) agents.push({ email, token, ticketIds: ticketIds.slice(0, 6) });
  }
  if (agents.length === 0) throw new Error('no agent has an open, unexpired chat to send into');
  const agent = agents[0];
  const inboxTargets = [
    as(agent.token, { path: '/api/csp/chatRoom?tab=all&pageSize=50' }),
    as(agent.token, { path: '/api/csp/chatRoom?tab=unassigned&pageSize=50' }),
    as(agent.token, { path: '/api/csp/chatRoom?tab=mine&pageSize=50' }),
    as(owner, { path: '/api/csp/chatRoom?tab=all&pageSize=50' }),
    as(owner, { path: '/api/csp/chatRoom?tab=all&mediaPlatform=WAP,IGM&pageSize=50' }),
  ];

  // Later pages: walk a few filters page by page and keep the cursors of pages 2..40.
  const seenTickets = new Map<number, TicketSummary>();
  const cursorTargets: LoadTarget[] = [];
  const cursorProbes: LoadTarget[] = [];
  for (const first of [
    '/api/ticket/ticket/list?status=RESOLVED&pageSize=50',
    '/api/ticket/ticket/list?mediaPlatform=WAP,IGM&pageSize=50',
    '/api/csp/chatRoom?tab=all&pageSize=50',
  ]) {
    let cursor: string | null = null;
    const walked: LoadTarget[] = [];
    for (let page = 1; page <= 40; page += 1) {
      const target: string = cursor ? `${first}&cursor=${cursor}` : first;
      const body: TicketListResponse | null = await tryGet<TicketListResponse>(owner, target);
      if (!body) break;
      for (const ticket of body.content) seenTickets.set(ticket.id, ticket);
      if (page > 1) walked.push(as(owner, { path: target }));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    cursorTargets.push(...walked);
    if (walked.length > 0) cursorProbes.push(walked[0], walked.at(-1)!);
  }

  // Rooms whose newest messages are months old: their ids sit mid-table, far from the newest.
  const [from, to] = [isoDaysAgo(200), isoDaysAgo(150)];
  const monthsAgo = await tryGet<TicketListResponse>(
    owner,
    `/api/ticket/ticket/list?createdFrom=${from}&createdTo=${to}&pageSize=20`,
  );
  const oldRooms = new Set(
    monthsAgo
      ? monthsAgo.content.map((ticket) => ticket.roomId)
      : (
          await rows<{ roomId: string }>(
            `select room_id as "roomId" from tickets
              where client_id = $1 and created_at between $2 and $3 order by created_at desc limit 20`,
            [bigClient.id, from, to],
          )
        ).map(({ roomId }) => roomId),
  );

  // Keywords: common, medium and rare, from the seed's phrases and from tickets seen above.
  const invoice =
    [...seenTickets.values()]
      .map((ticket) => /INV\/2026\/\d{5}/.exec(ticket.subject ?? '')?.[0])
      .find(Boolean) ??
    (
      await one<{ invoice: string }>(
        `select substring(subject from 'INV/2026/[0-9]{5}') as invoice from tickets
          where client_id = $1 and subject like 'Pesanan INV/2026/%' order by id desc limit 1`,
        [bigClient.id],
      )
    ).invoice;
  const customerName =
    seenTickets.values().next().value?.customer.name ??
    (
      await one<{ name: string }>(
        // A seeded customer: newer tickets may be other benches' live-chat visitors.
        `select customer_name as name from tickets
          where client_id = $1 and created_at < now() - interval '2 days' order by created_at desc limit 1`,
        [bigClient.id],
      )
    ).name;
  const keywords = [...searchWords, invoice, customerName];
  const searchTargets = keywords.map((keyword) =>
    as(owner, { path: `/api/ticket/search?keyword=${encodeURIComponent(keyword)}&pageSize=50` }),
  );

  const bareIds =
    seenTickets.size >= 50
      ? [...seenTickets.keys()].slice(0, 200)
      : (
          await rows<{ id: number }>(
            'select id from tickets tablesample system (1) where client_id = $1 limit 200',
            [bigClient.id],
          )
        ).map(({ id }) => Number(id));
  await sql.end();
  const bareSelectTargets = bareIds.map((id): LoadTarget => ({ path: `/bare/select?id=${id}` }));
  const bareInsertTargets: LoadTarget[] = [
    {
      method: 'POST',
      path: '/bare/insert',
      body: { clientId: bigClient.id, roomId: giant.id, text: 'Baik kak, pesanan sedang kami proses.' },
    },
  ];
  const sendTargets = agents.flatMap((sender) =>
    sender.ticketIds.map((ticketId) =>
      as(sender.token, {
        method: 'POST',
        path: '/api/csp/chat/secure',
        body: {
          ticketId,
          clientMessageId: `bench-{{unique}}`,
          kind: 'PublicMessage',
          text: 'Baik kak, pesanan sedang kami proses dan segera dikirim hari ini.',
        },
      }),
    ),
  );

  /** The load spec for some targets; a token every target shares goes in the spec's headers. */
  const specOf = (baseUrls: string[], targets: LoadTarget[], extra: Partial<LoadSpec> = {}): LoadSpec => {
    const tokens = new Set(targets.map((target) => target.headers?.authorization));
    const shared = tokens.size === 1 ? [...tokens][0] : undefined;
    const spec: LoadSpec = {
      baseUrls,
      connections,
      durationSeconds,
      warmupRequests: connections * 2,
      ...(shared ? { headers: { authorization: shared } } : {}),
      targets: shared ? targets.map(({ headers: _headers, ...target }) => target) : targets,
      ...extra,
    };
    if (JSON.stringify(spec).length > 120_000) throw new Error('the load spec is too long for one argument');
    return spec;
  };
  const apiUrls = servers.map((server) => server.url);
  const figures: Figure[] = [];
  /** A figure at `connections`, with the CPU each request cost the servers, PostgreSQL and the load. */
  const measure = async (targets: LoadTarget[], baseUrls = apiUrls) => {
    const spec = specOf(baseUrls, targets);
    const pids = baseUrls === apiUrls ? servers.map((server) => server.pid) : [bare.pid];
    const counting = startCpuCount(pids);
    const result = await runLoad(spec);
    const used = counting.end(result.count + (spec.warmupRequests ?? 0));
    result.cpu = { ...used, loadMs: result.loadCpuMs ?? 0 };
    return result;
  };
  const warnFailures = (label: string, result: LoadResult) => {
    if (result.failures > 0)
      console.log(`    ! ${label}: ${result.failures} failed (${failureStatuses(result)})`);
  };
  /** Each target alone on one connection: which filter or keyword costs what. */
  const probe = async (targets: LoadTarget[], labelOf: (target: LoadTarget) => string) => {
    const probes: Array<{ label: string; result: LoadResult }> = [];
    for (const target of targets) {
      const result = await runLoad(
        specOf(apiUrls, [target], {
          connections: 1,
          requests: probeRequests,
          warmupRequests: 1,
        }),
      );
      probes.push({ label: labelOf(target), result });
      warnFailures(labelOf(target), result);
    }
    return probes;
  };
  const pathOf = (target: LoadTarget) =>
    target.path.replace(/&pageSize=50/, '').replace(/cursor=([^&]{8})[^&]*/, 'cursor=$1…');

  const bareSelect = await measure(bareSelectTargets, [bare.url]);
  figures.push(bareFigure('bareSelect', 'bare SELECT (one indexed row)', bareSelect));
  const bareInsert = await measure(bareInsertTargets, [bare.url]);
  figures.push(bareFigure('bareInsert', 'bare INSERT (one message-shaped row)', bareInsert));
  /** The load at a fixed rate: requests start on the clock and are timed from when they were due. */
  const atRate = (rate: number, targets: LoadTarget[], baseUrls = apiUrls) =>
    runLoad(specOf(baseUrls, targets, { rate, warmupRequests: connections }));
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
  ) => {
    if (only && !only.has(key)) return;
    if (targets.length === 0) return console.log(`${label.padEnd(46)} skipped: nothing to ask for`);
    const result = await measure(targets);
    const figure = readFigure(key, label, result, bareSelect);
    warnFailures(label, result);
    const rate = openRateFor(result.rps);
    if (bareSelectAtRate && rate !== null) {
      const paced = await atRate(rate, targets);
      figure.atRate = { rate, result: paced, bareSelect: bareSelectAtRate };
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
  );
  await read('inboxList', `inbox page 1 (${inboxTargets.length} tabs/filters)`, inboxTargets);
  await read(
    'keysetPage',
    `later page by keyset (${cursorTargets.length} cursors)`,
    cursorTargets,
    cursorProbes,
  );
  await read('chatRoom', 'open giant room: newest 50 messages', [
    as(owner, { path: `/api/csp/chat?roomId=${giant.id}&limit=50` }),
  ]);
  await read('chatRoomDetail', 'giant room: chatRoom/detail', [
    as(owner, { path: `/api/csp/chatRoom/detail?ticketId=${giant.ticketId}` }),
  ]);
  await read(
    'chatRoomOrdinary',
    `open a months-old room: newest 50 (${oldRooms.size} rooms)`,
    [...oldRooms].map((roomId) => as(owner, { path: `/api/csp/chat?roomId=${roomId}&limit=50` })),
    [],
  );
  await read('search', `search first 50 hits (${keywords.length} keywords)`, searchTargets);
  await read('usersMe', 'GET users/me', [as(owner, { path: '/api/identity/users/me' })]);

  const sendStartedAt = new Date();
  const sent = only && !only.has('sendMessage') ? null : await measure(sendTargets);
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
