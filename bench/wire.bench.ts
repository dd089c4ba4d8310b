// What an agent's browser waits for on a phone's network: the inbox's answers fetched by
// Chromium with its network throttled (the DevTools protocol's emulateNetworkConditions: a
// fixed latency a request and the link's bandwidth, applied to the bytes as they come over the
// wire), from two servers at once: A sends every answer as it is (COMPRESS_FROM_BYTES=0), B
// gzips them as the product does by default. Rounds alternate A and B; each line is fetched
// `--fetches` times a round. Prints, per network and line, the median and p95 of the fetch
// (sent to body read), the bytes that crossed the wire and the bytes of JSON.
//
//   npm run bench:wire -- [--database-url URL] [--rounds 3] [--fetches 5] [--out FILE]
//
// The emulation adds no TCP slow start: on a real link a 33 KB answer also waits a round trip
// more than one that fits TCP's first window (about 14 KB), so the gain here is the smaller part.
import { writeFileSync } from 'node:fs';
import { benchDatabaseUrl, parseFlags } from './lib/bench-db';
import { launchChromium } from './lib/chromium';
import { searchWords, tableFilters } from './lib/list-filters';
import { ownerOfBigClient } from './lib/owner-api';
import { freePort, type RunningProcess, startServerProcess } from './lib/processes';
import { machine } from './lib/report';
import { percentile } from './lib/socket-workers';
import { readDataset } from './lib/web-session';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl = benchDatabaseUrl(flags['database-url']);
const rounds = Number(flags.rounds ?? 3);
const fetches = Number(flags.fetches ?? 5);

/** Links by their figures: latency a request, and download / upload in kilobits a second. */
const networks = [
  { name: 'mobile 4G, 60 ms, 9 Mbps', latency: 60, down: 9_000, up: 1_500 },
  { name: 'busy 3G, 150 ms, 1.6 Mbps', latency: 150, down: 1_600, up: 750 },
  { name: 'weak signal, 400 ms, 400 kbps', latency: 400, down: 400, up: 400 },
];

const started: RunningProcess[] = [];
const browser = await launchChromium();
type Side = 'A' | 'B';
interface Sample {
  ms: number;
  wireBytes: number;
  jsonBytes: number;
}
const samples: Record<string, Record<string, Record<Side, Sample[]>>> = {};
try {
  const dataset = await readDataset(databaseUrl);
  const servers = {
    A: await startServerProcess({ databaseUrl, port: await freePort(), env: { COMPRESS_FROM_BYTES: '0' } }),
    B: await startServerProcess({ databaseUrl, port: await freePort() }),
  };
  started.push(servers.A, servers.B);
  const { token } = await ownerOfBigClient(servers.A.url);
  const lines: Record<string, string> = {
    'ticket list, first page': `/api/ticket/ticket/list?${Object.values(tableFilters())[0]}&pageSize=50`,
    'inbox, first page': '/api/csp/chatRoom?tab=all&pageSize=50',
    'the long room, newest 50': `/api/csp/chat?ticketId=${dataset.chatTicketId}&limit=50`,
    'search, first 50 hits': `/api/ticket/search?keyword=${searchWords[0]}&pageSize=50`,
  };

  const context = await browser.newContext();
  const pages = { A: await context.newPage(), B: await context.newPage() };
  for (const side of ['A', 'B'] as const) await pages[side].goto(`${servers[side].url}/api/health`);
  const sessions = {
    A: await context.newCDPSession(pages.A),
    B: await context.newCDPSession(pages.B),
  };
  for (const side of ['A', 'B'] as const) await sessions[side].send('Network.enable');
  for (const network of networks) {
    for (const side of ['A', 'B'] as const) {
      await sessions[side].send('Network.emulateNetworkConditions', {
        offline: false,
        latency: network.latency,
        downloadThroughput: (network.down * 1000) / 8,
        uploadThroughput: (network.up * 1000) / 8,
      });
    }
    for (let round = 0; round < rounds; round += 1) {
      const order: Side[] = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const [line, target] of Object.entries(lines)) {
        for (const side of order) {
          const measured = await pages[side].evaluate(
            async ({ target, token, times }) => {
              const out: Array<{ ms: number; wireBytes: number; jsonBytes: number }> = [];
              for (let i = 0; i < times; i += 1) {
                performance.clearResourceTimings();
                const begun = performance.now();
                const response = await fetch(target, {
                  headers: { authorization: `Bearer ${token}` },
                  cache: 'no-store',
                });
                const body = await response.arrayBuffer();
                const ms = performance.now() - begun;
                if (!response.ok) throw new Error(`${target}: ${response.status}`);
                const entry = performance.getEntriesByType('resource').at(-1) as PerformanceResourceTiming;
                out.push({ ms, wireBytes: entry.encodedBodySize, jsonBytes: body.byteLength });
              }
              return out;
            },
            { target, token, times: fetches },
          );
          samples[network.name] ??= {};
          samples[network.name][line] ??= { A: [], B: [] };
          samples[network.name][line][side].push(...measured);
        }
      }
    }
  }
} finally {
  await browser.close();
  await Promise.all(started.map((running) => running.stop()));
}

/** A percentile of the samples' values under `key`. */
const at = (list: Sample[], key: keyof Sample, p: number) =>
  percentile(
    list.map((sample) => sample[key]).sort((a, b) => a - b),
    p,
  );
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const summary: Record<
  string,
  Record<string, Record<Side, { p50: number; p95: number; wire: number; json: number }>>
> = {};
console.log(`wire bench ${new Date().toISOString()}, ${machine().cpu}`);
console.log(`${rounds} rounds of ${fetches} fetches a line and side; A plain, B gzipped\n`);
for (const [network, byLine] of Object.entries(samples)) {
  console.log(network);
  summary[network] = {};
  for (const [line, bySide] of Object.entries(byLine)) {
    summary[network][line] = {} as never;
    for (const side of ['A', 'B'] as const) {
      const list = bySide[side];
      const figure = {
        p50: at(list, 'ms', 50),
        p95: at(list, 'ms', 95),
        wire: at(list, 'wireBytes', 50),
        json: at(list, 'jsonBytes', 50),
      };
      summary[network][line][side] = figure;
    }
    const { A, B } = summary[network][line];
    console.log(
      `  ${line.padEnd(26)} A p50 ${A.p50.toFixed(0).padStart(5)} ms  p95 ${A.p95.toFixed(0).padStart(5)} ms  ${kb(A.wire)}` +
        `   B p50 ${B.p50.toFixed(0).padStart(5)} ms  p95 ${B.p95.toFixed(0).padStart(5)} ms  ${kb(B.wire)} (of ${kb(B.json)})`,
    );
  }
}
if (flags.out) {
  writeFileSync(
    flags.out,
    `${JSON.stringify({ header: { ...machine(), rounds, fetches, networks }, summary }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${flags.out}`);
}
process.exit(0);
