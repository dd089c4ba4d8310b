// The load generator's own process: it reads a LoadSpec as JSON from argv[2], drives HTTP
// requests over a fixed number of keep-alive connections, and prints one LoadResult as JSON.
// It never runs inside the process it measures.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { LoadResult, LoadSpec } from './load';

const spec = JSON.parse(process.argv[2]) as LoadSpec;
const agents = spec.baseUrls.map(() => new http.Agent({ keepAlive: true, maxSockets: spec.connections }));

// "{{unique}}" in a body: this process's start and id, then a counter, so no run repeats another's.
const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
let sent = 0;
/** Bytes of answers' bodies as they came over the wire, for the bytes a request. */
let bodyBytes = 0;

function once(index: number, due?: number): Promise<{ ms: number; status: number }> {
  const target = spec.targets[index % spec.targets.length];
  const base = new URL(spec.baseUrls[index % spec.baseUrls.length]);
  const agent = agents[index % agents.length];
  sent += 1;
  const body =
    target.body === undefined
      ? undefined
      : JSON.stringify(target.body).replaceAll('{{unique}}', `${runId}-${sent}`);
  const started = due ?? performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: target.method ?? 'GET',
        path: target.path,
        headers: {
          ...spec.headers,
          ...target.headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        // A gzipped answer (asked for with accept-encoding) is decoded, as a browser would:
        // its cost falls on this process, not on the server measured.
        const gzipped = response.headers['content-encoding'] === 'gzip';
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          bodyBytes += chunk.length;
          if (gzipped) chunks.push(chunk);
        });
        response.on('end', () => {
          if (gzipped) gunzipSync(Buffer.concat(chunks));
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 });
        });
      },
    );
    request.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
    request.end(body);
  });
}

/** Closed loop: every connection sends its next request as soon as the last one answers. */
async function closedLoop(
  more: (issued: number) => boolean,
  record: (answer: { ms: number; status: number }) => void,
): Promise<void> {
  let issued = 0;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (more(issued)) {
        const index = issued;
        issued += 1;
        record(await once(index));
      }
    }),
  );
}

/** Open loop: request i is due at start + i / rate, and is sent then even if others are in flight. */
async function openLoop(
  rate: number,
  more: (issued: number) => boolean,
  record: (answer: { ms: number; status: number }) => void,
): Promise<void> {
  const started = performance.now();
  const dueOf = (index: number) => started + (index * 1000) / rate;
  const inFlight: Array<Promise<void>> = [];
  let issued = 0;
  while (more(issued)) {
    const wait = dueOf(issued) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Everything due by now goes at once, each timed from its own due time.
    while (more(issued) && dueOf(issued) <= performance.now()) {
      inFlight.push(once(issued, dueOf(issued)).then(record));
      issued += 1;
    }
  }
  await Promise.all(inFlight);
}

async function drive(total: number | null, seconds: number | null): Promise<LoadResult> {
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const deadline = seconds === null ? Number.POSITIVE_INFINITY : started + seconds * 1000;
  const more = (issued: number) => (total === null || issued < total) && performance.now() < deadline;
  const record = ({ ms, status }: { ms: number; status: number }) => {
    samples.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  if (spec.rate) await openLoop(spec.rate, more, record);
  else await closedLoop(more, record);
  const elapsed = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  const at = (p: number) =>
    samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? 0;
  const ok = Object.entries(statuses)
    .filter(([status]) => Number(status) >= 200 && Number(status) < 300)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    count: samples.length,
    failures: samples.length - ok,
    statuses,
    rps: samples.length / elapsed,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: samples.at(-1) ?? 0,
  };
}

if (spec.warmupRequests) await drive(spec.warmupRequests, null);
const cpuBefore = process.cpuUsage();
bodyBytes = 0;
const result = await drive(spec.requests ?? null, spec.durationSeconds ?? (spec.requests ? null : 10));
const cpuUsed = process.cpuUsage(cpuBefore);
result.loadCpuMs = (cpuUsed.user + cpuUsed.system) / 1000 / Math.max(1, result.count);
result.bodyBytes = bodyBytes / Math.max(1, result.count);
process.stdout.write(`${JSON.stringify(result)}\n`);
for (const agent of agents) agent.destroy();
