// Realtime latency and ingest at scale (issue 13, "Inbox at scale"): how long a live-chat
// visitor's message takes to reach the socket of the agent its ticket is assigned to, at a
// fixed rate, with one server process or two (agents on one, visitors on the other, events
// crossing through PostgreSQL LISTEN/NOTIFY); the highest rate at which the product stores
// visitor messages; and both beside a bare pipeline (bench/lib/bare-realtime-server.ts).
//
//   npm run bench:realtime -- [--database-url URL] [--agents 200] [--rate 300] [--duration 20]
//                             [--processes 1|2] [--visitors 300] [--ingest-seconds 10]
//                             [--ingest-concurrency 64] [--out bench/results/realtime-<tickets>.json] [--keep]
//
// The run's conversations are deleted at the end, so that the next bench reads the seeded
// data; --keep keeps them.
//
// Sockets live in two worker processes (bench/lib/socket-worker.ts): one holds the agents,
// one the visitors; the servers run in their own processes.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { visitorChatLimits } from '@app/contracts';
import pg from 'pg';
import { benchDatabaseUrl, ensureDatabase, parseFlags, vacuumWhenAutovacuumIsOff } from './lib/bench-db';
import { cpuMsByPid, cpuMsOf, postgresCpuMsSince, postgresPids } from './lib/cpu';
import { type BacklogFigures, backlogAfterLoad, describeBacklog, dropLeftoverJobs } from './lib/job-backlog';
import {
  assignConversations,
  benchPassword,
  bigClientSlug,
  newRunTag,
  ownerOfBigClient,
  removeRunConversations,
} from './lib/owner-api';
import { type RunningProcess, repoRoot, startScriptProcess, startServerProcess } from './lib/processes';
import {
  type ClosedLoopResult,
  type OpenLoopResult,
  percentile,
  type Receipts,
  SocketWorker,
} from './lib/socket-workers';
import { watchStatements } from './lib/statements';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const agentCount = Number(flags.agents ?? 200);
const rate = Number(flags.rate ?? 300);
const durationSeconds = Number(flags.duration ?? 20);
const processCount = Number(flags.processes ?? 1);
const ingestSeconds = Number(flags['ingest-seconds'] ?? 10);
const ingestConcurrency = Number(flags['ingest-concurrency'] ?? 64);
/**
 * The most messages/s the product's ingest run must be able to offer (visitors are sized for
 * it): about the bare pipeline's rate here, so running out of visitors never caps the figure.
 */
const ingestCeiling = Number(flags['ingest-ceiling'] ?? 2000);
/** Ports basePort (agents' server), basePort + 1 (visitors' with two processes), basePort + 10 (bare). */
const basePort = Number(flags.port ?? 4710);
const runTag = newRunTag();

// A visitor may send visitorChatLimits.messagesPerWindow messages per window; the first one
// opens the ticket. Enough visitors share the rate that none is refused (one spare each).
const perVisitorAllowance = visitorChatLimits.messagesPerWindow - 2;
const windowsSpanned = Math.max(1, Math.ceil((durationSeconds * 1000) / visitorChatLimits.windowMs));
const visitorsNeeded = Math.ceil(
  (rate * Math.min(durationSeconds, visitorChatLimits.windowMs / 1000)) / perVisitorAllowance,
);
const visitorCount = Math.max(Number(flags.visitors ?? 300), visitorsNeeded);
if (windowsSpanned > 1)
  console.log(
    `note: ${durationSeconds} s spans ${windowsSpanned} rate-limit windows; each visitor sends at most ${perVisitorAllowance} per 30 s`,
  );

interface LatencyFigures {
  sent: number;
  acknowledged: number;
  received: number;
  /** Acknowledged (stored) but never heard by the agent: must be 0. */
  lost: number;
  /** The first lost markers (`rt:<run>:<conversation>:<sequence>`), to look up in the database. */
  lostMarkers: string[];
  /** Neither acknowledged, refused nor heard when the wait ended: the server fell behind. */
  unanswered: number;
  duplicates: number;
  elsewhere: number;
  refused: Record<string, number>;
  offeredRate: number;
  drainSeconds: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  ackP99: number;
  /** Received minus acknowledged: the part after the message was stored (may be below 0). */
  afterAckP50: number;
  afterAckP99: number;
  /** Server CPU time (all its processes, not PostgreSQL's) per message sent, over the run and its drain. */
  serverCpuMsPerMessage: number;
}

interface IngestFigures {
  messagesPerSecond: number;
  acked: number;
  seconds: number;
  exhausted: boolean;
  refused: Record<string, number>;
  ackP50: number;
  ackP99: number;
  serverCpuMsPerMessage: number;
  /** Every PostgreSQL process's CPU time (backends, WAL writer, autovacuum) per message acknowledged. */
  databaseCpuMsPerMessage: number;
  /** The visitors' and agents' socket worker processes' CPU time per message acknowledged. */
  loadCpuMsPerMessage: number;
}

/** Sent and heard, marker by marker: latency to the expected agent's first socket, losses, repeats. */
function latencyOf(load: OpenLoopResult, heard: Receipts): LatencyFigures {
  const times = new Map(heard.receipts);
  const samples: number[] = [];
  const acks: number[] = [];
  const afterAck: number[] = [];
  let duplicates = 0;
  let lost = 0;
  let unanswered = 0;
  const lostMarkers: string[] = [];
  const refused = Object.values(load.errors).reduce((sum, n) => sum + n, 0);
  for (const [marker, sentAt, ackMs] of load.sent) {
    if (ackMs >= 0) acks.push(ackMs);
    const at = times.get(marker);
    if (!at || at.length === 0) {
      if (ackMs >= 0) {
        lost += 1;
        if (lostMarkers.length < 20) lostMarkers.push(marker);
      } else unanswered += 1;
      continue;
    }
    duplicates += at.length - 1;
    samples.push(Math.min(...at) - sentAt);
    if (ackMs >= 0) afterAck.push(Math.min(...at) - sentAt - ackMs);
  }
  afterAck.sort((a, b) => a - b);
  samples.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  return {
    sent: load.sent.length,
    acknowledged: acks.length,
    received: samples.length,
    lost,
    lostMarkers,
    unanswered: unanswered - refused,
    duplicates,
    elsewhere: heard.elsewhere,
    refused: load.errors,
    offeredRate: load.offeredRate,
    drainSeconds: load.drainSeconds,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.at(-1) ?? 0,
    ackP99: percentile(acks, 99),
    afterAckP50: percentile(afterAck, 50),
    afterAckP99: percentile(afterAck, 99),
    serverCpuMsPerMessage: 0,
  };
}

function ingestOf(result: ClosedLoopResult): IngestFigures {
  return {
    messagesPerSecond: result.acked / result.seconds,
    acked: result.acked,
    seconds: result.seconds,
    exhausted: result.exhausted,
    refused: result.errors,
    ackP50: result.ackMs.p50,
    ackP99: result.ackMs.p99,
    serverCpuMsPerMessage: 0,
    databaseCpuMsPerMessage: 0,
    loadCpuMsPerMessage: 0,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
function printLatency(label: string, figures: LatencyFigures, bare?: LatencyFigures): void {
  const ratio = bare && bare.p99 > 0 ? `  ${(figures.p99 / bare.p99).toFixed(1)}× bare p99` : '';
  console.log(
    `${label.padEnd(34)} p50 ${ms(figures.p50)}  p95 ${ms(figures.p95)}  p99 ${ms(figures.p99)}  max ${ms(figures.max)}${ratio}\n${''.padEnd(34)}` +
      ` sent ${figures.sent} received ${figures.received} lost ${figures.lost} duplicates ${figures.duplicates}` +
      (figures.unanswered > 0 ? ` unanswered ${figures.unanswered}` : '') +
      `  drained ${figures.drainSeconds.toFixed(1)} s after the last send` +
      `  (offered ${figures.offeredRate.toFixed(0)}/s, ack p99 ${ms(figures.ackP99)}, ` +
      `after ack p50 ${ms(figures.afterAckP50)} p99 ${ms(figures.afterAckP99)}; server CPU ${ms(figures.serverCpuMsPerMessage)}/message)`,
  );
  if (figures.lostMarkers.length > 0) console.log(`${''.padEnd(34)} lost: ${figures.lostMarkers.join(' ')}`);
  const refused = Object.entries(figures.refused);
  if (refused.length > 0)
    console.log(`${''.padEnd(34)} refused: ${refused.map(([k, n]) => `${k} ${n}`).join(', ')}`);
}

const settle = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** One latency run and one ingest run against servers already started. */
async function measure(options: {
  source: 'livechat' | 'bare';
  agentUrl: string;
  visitorUrl: string;
  widgetId?: string;
  ownerToken?: string;
  /** The server processes whose CPU time per message is reported. */
  serverPids: number[];
}): Promise<{ latency: LatencyFigures; ingest: IngestFigures }> {
  const agents = SocketWorker.start('agents');
  const visitors = SocketWorker.start('visitors');
  try {
    const bare = options.source === 'bare';
    let agentIds: string[] = [];
    if (!bare)
      agentIds = await agents.request({
        cmd: 'sign-in',
        baseUrl: options.agentUrl,
        agents: agentCount,
        domain: `${bigClientSlug}.test`,
        password: benchPassword,
      });
    const open = await agents.request({
      cmd: 'connect-agents',
      baseUrl: options.agentUrl,
      agents: agentCount,
      socketsPerAgent: 1,
      bare,
    });
    let t = performance.now();
    const prepared = await visitors.request({
      cmd: 'prepare',
      source: options.source,
      ctx: {
        baseUrl: options.visitorUrl,
        firstConversation: 0,
        conversations: visitorCount,
        agents: agentCount,
        runTag,
        widgetId: options.widgetId,
      },
    });
    console.log(
      `  ${options.source}: ${open} agent sockets, ${prepared.length} conversations opened in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    if (!bare && options.ownerToken) {
      t = performance.now();
      await assignConversations(options.agentUrl, options.ownerToken, runTag, prepared, agentIds);
      console.log(`  assigned to ${agentCount} agents in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    await settle(1000);
    await agents.request({ cmd: 'reset-receipts' });
    let cpu = cpuMsOf(options.serverPids);
    const load = await visitors.request({
      cmd: 'open-loop',
      rate,
      durationSeconds,
      conversations: prepared.map((each) => each.conversation),
      runTag,
    });
    await settle(3000);
    const latency = latencyOf(load, await agents.request({ cmd: 'receipts' }));
    latency.serverCpuMsPerMessage = (cpuMsOf(options.serverPids) - cpu) / load.sent.length;

    const latencyEnded = performance.now();

    // Ingest, closed loop: `ingestConcurrency` messages in flight, each on its own visitor.
    // The latency run's visitors serve again once their rate-limit window has passed; fresh
    // ones are added when they cannot carry `--ingest-ceiling` messages/s for the whole run.
    // The bare pipeline has no allowance: its visitors are never the limit.
    const needed = Math.ceil((ingestCeiling * ingestSeconds) / perVisitorAllowance);
    const fresh = bare ? 0 : Math.max(0, needed - prepared.length, ingestConcurrency * 2 - prepared.length);
    t = performance.now();
    const added =
      fresh === 0
        ? []
        : await visitors.request({
            cmd: 'prepare',
            source: options.source,
            ctx: {
              baseUrl: options.visitorUrl,
              firstConversation: visitorCount,
              conversations: fresh,
              agents: agentCount,
              runTag,
              widgetId: options.widgetId,
            },
          });
    if (added.length > 0)
      console.log(
        `  ${added.length} more conversations for ingest opened in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    // Assigned like the latency run's, so each message reaches one agent as in the bare
    // pipeline (an unassigned chat's message goes to every agent who sees the queue).
    if (added.length > 0 && !bare && options.ownerToken)
      await assignConversations(options.agentUrl, options.ownerToken, runTag, added, agentIds);
    if (!bare)
      await settle(Math.max(0, visitorChatLimits.windowMs + 1000 - (performance.now() - latencyEnded)));
    cpu = cpuMsOf(options.serverPids);
    const statements = bare ? undefined : await watchStatements(databaseUrl);
    const databaseCpu = cpuMsByPid(postgresPids());
    const loadCpu = cpuMsOf([agents.pid, visitors.pid]);
    const ingest = ingestOf(
      await visitors.request({
        cmd: 'closed-loop',
        concurrency: ingestConcurrency,
        durationSeconds: ingestSeconds,
        conversations: [...prepared, ...added].map((each) => each.conversation),
        perConversation: bare ? Number.MAX_SAFE_INTEGER : perVisitorAllowance,
        runTag: `${runTag}i`,
      }),
    );
    ingest.serverCpuMsPerMessage = (cpuMsOf(options.serverPids) - cpu) / Math.max(1, ingest.acked);
    ingest.databaseCpuMsPerMessage = postgresCpuMsSince(databaseCpu) / Math.max(1, ingest.acked);
    ingest.loadCpuMsPerMessage = (cpuMsOf([agents.pid, visitors.pid]) - loadCpu) / Math.max(1, ingest.acked);
    await statements?.report({ label: 'messages', count: Math.max(1, ingest.acked) });
    return { latency, ingest };
  } finally {
    await visitors.stop();
    await agents.stop();
  }
}

async function ticketCountOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `select count(*) from tickets where client_id = (select id from clients where slug = $1)`,
      [bigClientSlug],
    );
    return Number(result.rows[0].count);
  } finally {
    await client.end();
  }
}

const tickets = await ticketCountOf(databaseUrl);
console.log(
  `realtime bench: ${tickets} tickets, ${agentCount} agents, ${visitorCount} visitors, ${rate} msg/s for ${durationSeconds} s, ` +
    `${processCount} server process(es); node ${process.version}, ${os.cpus().length} cores, run ${runTag}`,
);

await vacuumWhenAutovacuumIsOff(databaseUrl);
const runStartedAt = new Date();
const leftover = await dropLeftoverJobs(databaseUrl, runStartedAt);
if (leftover > 0) console.log(`  dropped ${leftover} jobs an earlier bench server left waiting`);
const servers: RunningProcess[] = [];
let product: { latency: LatencyFigures; ingest: IngestFigures };
let backlog: BacklogFigures;
try {
  const agentServer = await startServerProcess({ databaseUrl, port: basePort, role: 'all' });
  servers.push(agentServer);
  const visitorServer =
    processCount > 1
      ? await startServerProcess({ databaseUrl, port: basePort + 1, role: 'web' })
      : agentServer;
  if (visitorServer !== agentServer) servers.push(visitorServer);
  const owner = await ownerOfBigClient(agentServer.url);
  product = await measure({
    source: 'livechat',
    agentUrl: agentServer.url,
    visitorUrl: visitorServer.url,
    widgetId: owner.widgetId,
    ownerToken: owner.token,
    serverPids: servers.map((server) => server.pid),
  });
  // The jobs the messages started (push planning, delivery): run after each answer, they must
  // keep up, or they fall further behind with every minute of such load.
  backlog = await backlogAfterLoad(databaseUrl, runStartedAt);
  console.log(`  job queue: ${describeBacklog(backlog)}`);
  console.log(
    `  server RSS: ${servers.map((server) => `${(server.rssBytes() / 1048576).toFixed(0)} MiB`).join(', ')}`,
  );
} finally {
  for (const server of servers) await server.stop();
}
// The run's conversations go, so that the next bench reads the seeded data (--keep keeps them).
if (flags.keep !== 'true') {
  const started = performance.now();
  const removed = await removeRunConversations(databaseUrl, runTag);
  console.log(
    `  removed the run's ${removed} rooms in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const bareUrl = new URL(databaseUrl);
bareUrl.pathname = '/bench_realtime_bare';
await ensureDatabase(bareUrl.toString());
const bareServer = await startScriptProcess({
  script: 'bench/lib/bare-realtime-server.ts',
  port: basePort + 10,
  env: { DATABASE_URL: bareUrl.toString() },
});
let bare: { latency: LatencyFigures; ingest: IngestFigures };
try {
  bare = await measure({
    source: 'bare',
    agentUrl: bareServer.url,
    visitorUrl: bareServer.url,
    serverPids: [bareServer.pid],
  });
} finally {
  await bareServer.stop();
}

console.log('');
const label = processCount > 1 ? 'product, 2 processes (via NOTIFY)' : 'product, 1 process';
printLatency(`${label}`, product.latency, bare.latency);
printLatency('bare pipeline', bare.latency);
console.log(
  `${'ingest (closed loop)'.padEnd(34)} product ${product.ingest.messagesPerSecond.toFixed(0)} msg/s ` +
    `(ack p99 ${ms(product.ingest.ackP99)}, CPU ${ms(product.ingest.serverCpuMsPerMessage)}/message` +
    `${product.ingest.exhausted ? ', visitors ran out' : ''}), bare ${bare.ingest.messagesPerSecond.toFixed(0)} msg/s ` +
    `(ack p99 ${ms(bare.ingest.ackP99)}, CPU ${ms(bare.ingest.serverCpuMsPerMessage)}/message): ` +
    `${((100 * product.ingest.messagesPerSecond) / bare.ingest.messagesPerSecond).toFixed(0)}% of bare`,
);
const cpuShares = (figures: IngestFigures) =>
  `server ${ms(figures.serverCpuMsPerMessage)}, PostgreSQL ${ms(figures.databaseCpuMsPerMessage)}, ` +
  `load ${ms(figures.loadCpuMsPerMessage)}`;
console.log(
  `${''.padEnd(34)} CPU a message: product ${cpuShares(product.ingest)}; bare ${cpuShares(bare.ingest)}`,
);
if (Object.keys(product.ingest.refused).length > 0)
  console.log(`${''.padEnd(34)} ingest refused: ${JSON.stringify(product.ingest.refused)}`);

const out =
  flags.out ?? path.join(repoRoot, `bench/results/realtime-${tickets}${processCount > 1 ? '-2p' : ''}.json`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: {
        cores: os.cpus().length,
        node: process.version,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      },
      settings: {
        tickets,
        agents: agentCount,
        visitors: visitorCount,
        rate,
        durationSeconds,
        processes: processCount,
      },
      product,
      jobs: backlog,
      bare,
      ratios: {
        p99: bare.latency.p99 > 0 ? product.latency.p99 / bare.latency.p99 : null,
        ingestShare: product.ingest.messagesPerSecond / bare.ingest.messagesPerSecond,
      },
    },
    null,
    2,
  )}\n`,
);
console.log(`written to ${path.relative(process.cwd(), out)}`);
