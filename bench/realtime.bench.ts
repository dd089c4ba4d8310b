// Realtime latency and ingest at scale (issue 13, "Inbox at scale"): how long a live-chat
// visitor's message takes to reach the socket of the agent its ticket is assigned to, at a
// fixed rate, with one server process or two (agents on one, visitors on the other, events
// crossing through PostgreSQL LISTEN/NOTIFY); the highest rate at which the product stores
// visitor messages; and both beside a bare pipeline (bench/lib/bare-realtime-server.ts).
//
//   npm run bench:realtime -- [--database-url URL] [--agents 200] [--rate 300] [--duration 20]
//                             [--source livechat|telegram] [--processes 1|2] [--visitors 300] [--ingest-seconds 10]
//                             [--ingest-concurrency 64] [--history 0] [--drop-listener 0]
//                             [--out bench/results/realtime-<tickets>.json] [--keep]
//
// With --drop-listener S the product's listening connections are ended S seconds into its
// latency run: the events committed before they listen again must still reach the agents
// (lost 0), a second or so late.
//
// With --history N each of the product's conversations gets N earlier messages before it is
// measured (bench/lib/run-history.ts), their search words in parts as the product keeps them,
// so the load writes into long conversations.
//
// The run's conversations are deleted at the end, so that the next bench reads the seeded
// data; --keep keeps them.
//
// With `--source telegram` customers write through Telegram's webhook instead of the widget's
// socket: a Telegram simulator runs in its own process, the owner connects a bot through the
// product's API, and the visitors' worker POSTs each update to the webhook the product set
// (bench/lib/telegram-bot.ts). The acknowledgement is then the webhook's 200.
//
// Sockets live in two worker processes (bench/lib/socket-worker.ts): one holds the agents,
// one the visitors; the servers run in their own processes. One run is bench/lib/realtime-run.ts,
// its figures and how they print bench/lib/realtime-figures.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { visitorChatLimits } from '@app/contracts';
import pg from 'pg';
import {
  benchDatabaseUrl,
  ensureDatabase,
  parseFlags,
  vacuumWhenAutovacuumIsOff,
  warmDatabaseCache,
} from './lib/bench-db';
import { type BacklogFigures, backlogAfterLoad, describeBacklog, dropLeftoverJobs } from './lib/job-backlog';
import { bigClientSlug, newRunTag, ownerOfBigClient, removeRunConversations } from './lib/owner-api';
import { type RunningProcess, repoRoot, startScriptProcess, startServerProcess } from './lib/processes';
import { type IngestFigures, type LatencyFigures, printIngest, printLatency } from './lib/realtime-figures';
import { measureRealtime, type RealtimeSettings } from './lib/realtime-run';
import { type BenchBot, connectBenchBot } from './lib/telegram-bot';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const agentCount = Number(flags.agents ?? 200);
const rate = Number(flags.rate ?? 300);
const durationSeconds = Number(flags.duration ?? 20);
const processCount = Number(flags.processes ?? 1);
const source = flags.source === 'telegram' ? 'telegram' : 'livechat';
const ingestSeconds = Number(flags['ingest-seconds'] ?? 10);
const history = Number(flags.history ?? 0);
const dropListenerAt = Number(flags['drop-listener'] ?? 0);
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

const settings: RealtimeSettings = {
  databaseUrl,
  agentCount,
  visitorCount,
  rate,
  durationSeconds,
  ingestSeconds,
  ingestConcurrency,
  ingestCeiling,
  perVisitorAllowance,
  runTag,
  history,
  dropListenerAt,
};

/**
 * The big client's tickets, and PostgreSQL's settings that decide how much WAL a checkpoint's
 * full-page images add and how often they come (the twenty-ninth stop).
 */
async function databaseFacts(url: string): Promise<{ tickets: number; settings: Record<string, string> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `select count(*) from tickets where client_id = (select id from clients where slug = $1)`,
      [bigClientSlug],
    );
    const settings = await client.query<{ name: string; setting: string }>(
      `select name, current_setting(name) as setting from unnest(array['wal_compression', 'max_wal_size',
              'checkpoint_timeout', 'shared_buffers', 'synchronous_commit']) as name`,
    );
    return {
      tickets: Number(result.rows[0].count),
      settings: Object.fromEntries(settings.rows.map((row) => [row.name, row.setting])),
    };
  } finally {
    await client.end();
  }
}

const { tickets, settings: postgresSettings } = await databaseFacts(databaseUrl);
console.log(
  `realtime bench: ${tickets} tickets, ${agentCount} agents, ${visitorCount} visitors, ${rate} msg/s for ${durationSeconds} s, ` +
    `${processCount} server process(es), customers through ${source}${history > 0 ? `, ${history} messages of history each` : ''}; node ${process.version}, ${os.cpus().length} cores, run ${runTag}`,
);
console.log(
  `  PostgreSQL: ${Object.entries(postgresSettings)
    .map(([name, setting]) => `${name} ${setting}`)
    .join(', ')}`,
);

await vacuumWhenAutovacuumIsOff(databaseUrl);
await warmDatabaseCache(databaseUrl);
const runStartedAt = new Date();
const leftover = await dropLeftoverJobs(databaseUrl, runStartedAt);
if (leftover > 0) console.log(`  dropped ${leftover} jobs an earlier bench server left waiting`);
const servers: RunningProcess[] = [];
const simulator =
  source === 'telegram'
    ? await startScriptProcess({ script: 'bench/lib/telegram-simulator-server.ts', port: basePort + 20 })
    : undefined;
const serverEnv = simulator ? { TELEGRAM_API_BASE: simulator.url } : undefined;
let bot: BenchBot | undefined;
let product: { latency: LatencyFigures; ingest: IngestFigures };
let backlog: BacklogFigures;
try {
  const agentServer = await startServerProcess({ databaseUrl, port: basePort, role: 'all', env: serverEnv });
  servers.push(agentServer);
  const visitorServer =
    processCount > 1
      ? await startServerProcess({ databaseUrl, port: basePort + 1, role: 'web', env: serverEnv })
      : agentServer;
  if (visitorServer !== agentServer) servers.push(visitorServer);
  const owner = await ownerOfBigClient(agentServer.url);
  if (simulator)
    bot = await connectBenchBot({
      databaseUrl,
      serverUrl: visitorServer.url,
      ownerToken: owner.token,
      simulatorUrl: simulator.url,
    });
  product = await measureRealtime(settings, {
    source,
    webhook: bot?.webhook,
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
  await bot?.release();
  for (const server of servers) await server.stop();
  await simulator?.stop();
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
  bare = await measureRealtime(settings, {
    source: 'bare',
    agentUrl: bareServer.url,
    visitorUrl: bareServer.url,
    serverPids: [bareServer.pid],
  });
} finally {
  await bareServer.stop();
}

console.log('');
const label = `${processCount > 1 ? 'product, 2 processes (via NOTIFY)' : 'product, 1 process'}${source === 'telegram' ? ', Telegram webhook' : ''}`;
printLatency(`${label}`, product.latency, bare.latency);
printLatency('bare pipeline', bare.latency);
printIngest(product.ingest, bare.ingest);

const out =
  flags.out ??
  path.join(
    repoRoot,
    `bench/results/realtime-${tickets}${source === 'telegram' ? '-telegram' : ''}${processCount > 1 ? '-2p' : ''}.json`,
  );
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
        source,
        history,
        dropListenerAt,
        postgres: postgresSettings,
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
