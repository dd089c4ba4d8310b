// The realtime bench's figures (bench:realtime): latency from what the visitors sent and the
// agents heard, marker by marker, ingest from the closed loop, and how both print beside the
// bare pipeline's.
import { writeFileSync } from 'node:fs';
import { type ClosedLoopResult, type OpenLoopResult, percentile, type Receipts } from './socket-workers';
import type { WalStretch } from './wal-images';

export interface LatencyFigures {
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
  /** The WAL of the load's first seconds (the product's runs), or why it could not be read. */
  wal?: WalStretch | string;
}

export interface IngestFigures {
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

/** How many timelines this process wrote (BENCH_TIMELINE): the product's run is the first. */
let timelines = 0;

/** Sent and heard, marker by marker: latency to the expected agent's first socket, losses, repeats. */
export function latencyOf(load: OpenLoopResult, heard: Receipts): LatencyFigures {
  const times = new Map(heard.receipts);
  const samples: number[] = [];
  const acks: number[] = [];
  const afterAck: number[] = [];
  let duplicates = 0;
  let lost = 0;
  let unanswered = 0;
  const lostMarkers: string[] = [];
  // BENCH_TIMELINE=<prefix> keeps each message's send time, acknowledgement and latency in
  // <prefix>.<n>.json, to see when in a run the slow ones were sent (a diagnosis, not a figure).
  const timeline: Array<[number, number, number]> | undefined = process.env.BENCH_TIMELINE ? [] : undefined;
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
    const latency = Math.min(...at) - sentAt;
    samples.push(latency);
    timeline?.push([sentAt, ackMs, latency]);
    if (ackMs >= 0) afterAck.push(latency - ackMs);
  }
  if (timeline) {
    timelines += 1;
    writeFileSync(`${process.env.BENCH_TIMELINE}.${timelines}.json`, JSON.stringify(timeline));
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

/** The closed loop's figures; the CPU shares are filled in by the caller. */
export function ingestOf(result: ClosedLoopResult): IngestFigures {
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

/** A time in milliseconds, as the figures print it. */
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The latency line of a run, with its ratio to the bare pipeline's p99 when given. */
export function printLatency(label: string, figures: LatencyFigures, bare?: LatencyFigures): void {
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

/** The ingest line: the product's rate beside the bare pipeline's, and the CPU a message by process. */
export function printIngest(product: IngestFigures, bare: IngestFigures): void {
  console.log(
    `${'ingest (closed loop)'.padEnd(34)} product ${product.messagesPerSecond.toFixed(0)} msg/s ` +
      `(ack p99 ${ms(product.ackP99)}, CPU ${ms(product.serverCpuMsPerMessage)}/message` +
      `${product.exhausted ? ', visitors ran out' : ''}), bare ${bare.messagesPerSecond.toFixed(0)} msg/s ` +
      `(ack p99 ${ms(bare.ackP99)}, CPU ${ms(bare.serverCpuMsPerMessage)}/message): ` +
      `${((100 * product.messagesPerSecond) / bare.messagesPerSecond).toFixed(0)}% of bare`,
  );
  const cpuShares = (figures: IngestFigures) =>
    `server ${ms(figures.serverCpuMsPerMessage)}, PostgreSQL ${ms(figures.databaseCpuMsPerMessage)}, ` +
    `load ${ms(figures.loadCpuMsPerMessage)}`;
  console.log(`${''.padEnd(34)} CPU a message: product ${cpuShares(product)}; bare ${cpuShares(bare)}`);
  if (Object.keys(product.refused).length > 0)
    console.log(`${''.padEnd(34)} ingest refused: ${JSON.stringify(product.refused)}`);
}
