// Memory per agent socket and fan-out with many sockets open (issue 13): one server process;
// a worker process signs the agents in and opens `--sockets` authenticated /ws sockets over
// them; the server's resident memory is read before and after, and one visitor's messages
// must still reach every socket of the agent their ticket is assigned to. Then visitors write
// into chats of many agents at `--rate` messages a second for `--busy-seconds`, and the
// server's CPU a message is read with every socket open: the hub finds each event's sockets
// by room, and a scan of every socket per event would show here.
//
//   npm run bench:sockets -- [--database-url URL] [--sockets 5000] [--agents 200] [--messages 10]
//                            [--rate 100] [--busy-seconds 10] [--out bench/results/sockets-<sockets>.json]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { benchDatabaseUrl, parseFlags } from './lib/bench-db';
import { cpuMsOf } from './lib/cpu';
import {
  assignConversations,
  benchPassword,
  bigClientSlug,
  newRunTag,
  ownerOfBigClient,
} from './lib/owner-api';
import { repoRoot, startServerProcess } from './lib/processes';
import { percentile, SocketWorker } from './lib/socket-workers';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const socketCount = Number(flags.sockets ?? 5000);
const agentCount = Number(flags.agents ?? 200);
const messageCount = Number(flags.messages ?? 10);
const busyRate = Number(flags.rate ?? 100);
const busySeconds = Number(flags['busy-seconds'] ?? 10);
const port = Number(flags.port ?? 4730);
const socketsPerAgent = Math.ceil(socketCount / agentCount);
const runTag = newRunTag();

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
const settle = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

console.log(
  `sockets bench: ${agentCount * socketsPerAgent} agent sockets (${socketsPerAgent} per agent, ${agentCount} agents); ` +
    `node ${process.version}, ${os.cpus().length} cores, run ${runTag}`,
);

/**
 * The server's inspector, the one way to force a collection in a process that exposes no
 * hook: HeapProfiler.collectGarbage, then process.memoryUsage() read inside the server.
 */
async function inspectorOf(inspectorPort: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let next = 1;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = next++;
      const onMessage = (data: WebSocket.RawData) => {
        const reply = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
        if (reply.id !== id) return;
        socket.off('message', onMessage);
        resolve(reply.result ?? {});
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** Collects twice (the second frees what the first's finalizers released), then reads memory. */
    async collectedMemory(): Promise<{ rss: number; heapUsed: number; external: number }> {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      const result = await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      return JSON.parse((result.result as { value: string }).value);
    },
    close: () => socket.close(),
  };
}

const inspectorPort = port + 1000;
const server = await startServerProcess({
  databaseUrl,
  port,
  role: 'all',
  env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${inspectorPort}`.trim() },
});
const inspector = await inspectorOf(inspectorPort);
const agents = SocketWorker.start('agents');
const visitors = SocketWorker.start('visitors');
try {
  const owner = await ownerOfBigClient(server.url);
  const agentIds = await agents.request({
    cmd: 'sign-in',
    baseUrl: server.url,
    agents: agentCount,
    domain: `${bigClientSlug}.test`,
    password: benchPassword,
  });
  // Signed in and settled: what the server holds without sockets.
  await settle(5000);
  const heapBefore = await inspector.collectedMemory();
  const before = server.rssBytes();

  let t = performance.now();
  const open = await agents.request({
    cmd: 'connect-agents',
    baseUrl: server.url,
    agents: agentCount,
    socketsPerAgent,
    bare: false,
  });
  const connectSeconds = (performance.now() - t) / 1000;
  // No hook forces a collection in the server: the settle lets the connect's garbage go.
  await settle(10_000);
  const heapAfter = await inspector.collectedMemory();
  const after = server.rssBytes();
  const perSocket = (after - before) / open;
  const heapPerSocket =
    (heapAfter.heapUsed + heapAfter.external - heapBefore.heapUsed - heapBefore.external) / open;
  console.log(
    `  ${open} sockets open in ${connectSeconds.toFixed(1)} s; server RSS ${mib(before)} → ${mib(after)}: ` +
      `${(perSocket / 1024).toFixed(1)} KiB per socket; after a forced GC, heap + external ` +
      `${mib(heapBefore.heapUsed + heapBefore.external)} → ${mib(heapAfter.heapUsed + heapAfter.external)}: ` +
      `${(heapPerSocket / 1024).toFixed(1)} KiB per socket; worker RSS ${mib(rssOf(agents.pid))}`,
  );

  /** Live-chat visitors' chats `first`…, assigned across the agents, receipts counted afresh. */
  const chatsOfVisitors = async (first: number, count: number) => {
    const prepared = await visitors.request({
      cmd: 'prepare',
      source: 'livechat',
      ctx: {
        baseUrl: server.url,
        firstConversation: first,
        conversations: count,
        agents: agentCount,
        runTag,
        widgetId: owner.widgetId,
      },
    });
    await assignConversations(server.url, owner.token, runTag, prepared, agentIds);
    await settle(1000);
    await agents.request({ cmd: 'reset-receipts' });
  };
  // One visitor whose ticket belongs to agent1: every one of agent1's sockets must hear each message.
  await chatsOfVisitors(0, 1);
  t = performance.now();
  const load = await visitors.request({
    cmd: 'open-loop',
    rate: 5,
    durationSeconds: messageCount / 5,
    conversations: [0],
    runTag,
  });
  await settle(3000);
  const heard = new Map((await agents.request({ cmd: 'receipts' })).receipts);
  const counts: number[] = [];
  const first: number[] = [];
  const last: number[] = [];
  for (const [marker, sentAt] of load.sent) {
    const times = heard.get(marker) ?? [];
    counts.push(times.length);
    if (times.length === 0) continue;
    first.push(Math.min(...times) - sentAt);
    last.push(Math.max(...times) - sentAt);
  }
  first.sort((a, b) => a - b);
  last.sort((a, b) => a - b);
  const complete = counts.filter((count) => count === socketsPerAgent).length;
  console.log(
    `  ${load.sent.length} messages to agent1's ${socketsPerAgent} sockets: ${complete} reached all of them ` +
      `(receipts per message ${Math.min(...counts)}..${Math.max(...counts)}); ` +
      `first socket p50 ${percentile(first, 50).toFixed(1)} ms, last socket p50 ${percentile(last, 50).toFixed(1)} ms ` +
      `max ${(last.at(-1) ?? 0).toFixed(1)} ms`,
  );
  // Busy: visitors in chats of many agents (one spare message each in the rate window).
  const busyChats = Math.ceil((busyRate * busySeconds) / 18);
  await chatsOfVisitors(1, busyChats);
  const busyCpu = cpuMsOf([server.pid]);
  const busy = await visitors.request({
    cmd: 'open-loop',
    rate: busyRate,
    durationSeconds: busySeconds,
    conversations: Array.from({ length: busyChats }, (_, n) => n + 1),
    runTag,
  });
  await settle(2000);
  const busyCpuPerMessage = (cpuMsOf([server.pid]) - busyCpu) / Math.max(1, busy.sent.length);
  const busyHeard = new Map((await agents.request({ cmd: 'receipts' })).receipts);
  const busyLatest: number[] = [];
  let busyReceipts = 0;
  for (const [marker, sentAt] of busy.sent) {
    const times = busyHeard.get(marker) ?? [];
    busyReceipts += times.length;
    if (times.length > 0) busyLatest.push(Math.max(...times) - sentAt);
  }
  busyLatest.sort((a, b) => a - b);
  console.log(
    `  busy: ${busy.sent.length} messages at ${busyRate}/s into ${busyChats} chats of ${agentCount} agents, ` +
      `${busyReceipts} socket receipts (${socketsPerAgent} sockets an agent); last socket p50 ` +
      `${percentile(busyLatest, 50).toFixed(1)} ms, p99 ${percentile(busyLatest, 99).toFixed(1)} ms; ` +
      `server CPU ${busyCpuPerMessage.toFixed(2)} ms a message`,
  );

  const stillOpen = (await agents.request({ cmd: 'receipts' })).openSockets;
  console.log(
    `  sockets still open at the end: ${stillOpen} of ${open}; server RSS ${mib(server.rssBytes())}`,
  );

  const out = flags.out ?? path.join(repoRoot, `bench/results/sockets-${open}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: { cores: os.cpus().length, node: process.version },
        sockets: open,
        socketsPerAgent,
        connectSeconds,
        serverRssBefore: before,
        serverRssAfter: after,
        bytesPerSocket: perSocket,
        heapBefore,
        heapAfter,
        heapBytesPerSocket: heapPerSocket,
        fanOut: {
          messages: load.sent.length,
          reachedEverySocket: complete,
          firstSocketP50: percentile(first, 50),
          lastSocketP50: percentile(last, 50),
          lastSocketMax: last.at(-1) ?? 0,
        },
        busy: {
          rate: busyRate,
          seconds: busySeconds,
          chats: busyChats,
          messages: busy.sent.length,
          receipts: busyReceipts,
          lastSocketP50: percentile(busyLatest, 50),
          lastSocketP99: percentile(busyLatest, 99),
          serverCpuMsPerMessage: busyCpuPerMessage,
        },
        stillOpen,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${path.relative(process.cwd(), out)}`);
} finally {
  inspector.close();
  await visitors.stop();
  await agents.stop();
  await server.stop();
}
