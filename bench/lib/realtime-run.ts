// One realtime run of the bench (bench:realtime) against servers already started: agents
// signed in and holding sockets in one worker process, visitors in another; a latency run at a
// fixed rate (open loop), then an ingest run (closed loop), each with the CPU time it cost.
import { visitorChatLimits } from '@app/contracts';
import pg from 'pg';
import { cpuMsByPid, cpuMsOf, postgresCpuMsSince, postgresPids } from './cpu';
import { assignConversations, benchPassword, bigClientSlug } from './owner-api';
import { type IngestFigures, ingestOf, type LatencyFigures, latencyOf } from './realtime-figures';
import { addRunHistory } from './run-history';
import { SocketWorker } from './socket-workers';
import { watchStatements } from './statements';
import { describeWalStretch, walMark, walStretch } from './wal-images';

/** The bench's settings a run reads. */
export interface RealtimeSettings {
  databaseUrl: string;
  agentCount: number;
  visitorCount: number;
  /** Messages a second of the latency run, for `durationSeconds`. */
  rate: number;
  durationSeconds: number;
  ingestSeconds: number;
  ingestConcurrency: number;
  /** The most messages/s the product's ingest run must be able to offer (visitors are sized for it). */
  ingestCeiling: number;
  /** Messages one visitor sends in a rate-limit window: the limit less the first (it opens the ticket) and a spare. */
  perVisitorAllowance: number;
  runTag: string;
  /** Earlier messages each of the product's conversations gets before it is measured (--history). */
  history: number;
  /**
   * Seconds into the product's latency run at which its servers' listening connections are
   * ended (--drop-listener); 0: never. Shows that events committed meanwhile still arrive.
   */
  dropListenerAt: number;
}

/** Ends every connection of the database that listens (the server processes' event buses). */
async function dropListeners(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`,
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** Gives the run's conversations that lack it their history (--history), and says what it made. */
async function giveHistory(databaseUrl: string, runTag: string, messages: number): Promise<void> {
  if (messages <= 0) return;
  const made = await addRunHistory(databaseUrl, runTag, messages);
  const words = made.lastPartWords;
  console.log(
    `  history: ${made.messages} messages in ${made.conversations} conversations in ${made.seconds.toFixed(1)} s; ` +
      `${made.parts} search parts, last parts' words mean ${words.mean.toFixed(0)}, p50 ${words.p50}, p90 ${words.p90}`,
  );
}

const settle = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** One latency run and one ingest run against servers already started. */
export async function measureRealtime(
  {
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
  }: RealtimeSettings,
  options: {
    source: 'livechat' | 'bare' | 'telegram';
    agentUrl: string;
    visitorUrl: string;
    widgetId?: string;
    /** The bot's webhook (telegram only). */
    webhook?: { url: string; secretToken: string };
    ownerToken?: string;
    /** The server processes whose CPU time per message is reported. */
    serverPids: number[];
  },
): Promise<{ latency: LatencyFigures; ingest: IngestFigures }> {
  const agents = SocketWorker.start('agents');
  const visitors = SocketWorker.start('visitors');
  try {
    const bare = options.source === 'bare';
    /** Only the widget limits how fast one customer may write (visitorChatLimits). */
    const limited = options.source === 'livechat';
    const channel = options.source === 'telegram' ? 'TLG' : 'LVC';
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
        webhook: options.webhook,
      },
    });
    console.log(
      `  ${options.source}: ${open} agent sockets, ${prepared.length} conversations opened in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    if (!bare && options.ownerToken) {
      t = performance.now();
      // Each transfer's events reach every connected agent: the agents' process is counted too.
      const cpu = { server: cpuMsOf(options.serverPids), agents: cpuMsOf([agents.pid]) };
      const framesBefore = await agents.request({ cmd: 'frames' });
      const database = cpuMsByPid(postgresPids());
      const { findingMs } = await assignConversations(
        options.agentUrl,
        options.ownerToken,
        runTag,
        prepared,
        agentIds,
        channel,
      );
      const perConversation = (value: number) => (value / prepared.length).toFixed(2);
      console.log(
        `  assigned to ${agentCount} agents in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
          `(finding the tickets ${(findingMs / 1000).toFixed(1)} s); CPU a conversation: ` +
          `server ${perConversation(cpuMsOf(options.serverPids) - cpu.server)}, PostgreSQL ${perConversation(postgresCpuMsSince(database))}, ` +
          `agents' sockets ${perConversation(cpuMsOf([agents.pid]) - cpu.agents)} ms; ` +
          `${perConversation((await agents.request({ cmd: 'frames' })) - framesBefore)} frames to the agents`,
      );
    }
    if (!bare) await giveHistory(databaseUrl, runTag, history);
    await settle(1000);
    await agents.request({ cmd: 'reset-receipts' });
    // The WAL of the product's first seconds of load: the pages a checkpoint before them makes
    // it write whole, by relation (wal-images.ts). Marks only during the load; read after it.
    // A mark that cannot be read is said, and the run goes on.
    const walSeconds = Math.min(4, durationSeconds);
    const walStart = bare ? undefined : await walMark(databaseUrl);
    const walEnd = bare ? undefined : settle(walSeconds * 1000).then(() => walMark(databaseUrl));
    let cpu = cpuMsOf(options.serverPids);
    const dropping =
      bare || dropListenerAt <= 0
        ? undefined
        : settle(dropListenerAt * 1000).then(async () => {
            const dropped = await dropListeners(databaseUrl);
            console.log(
              `  ended ${dropped} listening connection(s) ${dropListenerAt} s into the latency run`,
            );
          });
    const load = await visitors.request({
      cmd: 'open-loop',
      rate,
      durationSeconds,
      conversations: prepared.map((each) => each.conversation),
      runTag,
    });
    await dropping;
    await settle(3000);
    const latency = latencyOf(load, await agents.request({ cmd: 'receipts' }));
    latency.serverCpuMsPerMessage = (cpuMsOf(options.serverPids) - cpu) / load.sent.length;
    if (walStart !== undefined && walEnd) {
      latency.wal = await walStretch(databaseUrl, walStart, await walEnd, walSeconds);
      console.log(`  ${describeWalStretch(latency.wal)}`);
    }

    const latencyEnded = performance.now();

    // Ingest, closed loop: `ingestConcurrency` messages in flight, each on its own visitor.
    // The latency run's visitors serve again once their rate-limit window has passed; fresh
    // ones are added when they cannot carry `--ingest-ceiling` messages/s for the whole run.
    // The bare pipeline has no allowance: its visitors are never the limit.
    const needed = Math.ceil((ingestCeiling * ingestSeconds) / perVisitorAllowance);
    const fresh = !limited
      ? 0
      : Math.max(0, needed - prepared.length, ingestConcurrency * 2 - prepared.length);
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
              webhook: options.webhook,
            },
          });
    if (added.length > 0)
      console.log(
        `  ${added.length} more conversations for ingest opened in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    // Assigned like the latency run's, so each message reaches one agent as in the bare
    // pipeline (an unassigned chat's message goes to every agent who sees the queue).
    if (added.length > 0 && !bare && options.ownerToken)
      await assignConversations(options.agentUrl, options.ownerToken, runTag, added, agentIds, channel);
    if (added.length > 0 && !bare) await giveHistory(databaseUrl, runTag, history);
    if (limited)
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
        perConversation: limited ? perVisitorAllowance : Number.MAX_SAFE_INTEGER,
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
