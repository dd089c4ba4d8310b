import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BacklogFigures } from './job-backlog';
import { formatResult, type LoadResult } from './load';

/** How a figure is read against the bare limit: reads by p95, writes by throughput. */
export type FigureKind = 'bare' | 'read' | 'write';

/** One measured line of a bench: what, how it compares to the bare limit, and the raw result. */
export interface Figure {
  key: string;
  label: string;
  kind: FigureKind;
  result: LoadResult;
  /** Reads: p95 ÷ bare SELECT p95. Writes: req/s ÷ bare INSERT req/s. */
  ratio: number | null;
  /** Reads with a bare handler of their own size (a 50-row page, a room's 50 messages): p95 ÷ its p95. */
  shape?: { key: string; ratio: number };
  /**
   * The same targets at a fixed rate (open loop, `--rate`: half of what they served), beside the
   * bare SELECT at half of its own rate (`bareSelect`) and, from the fifty-first stop, at the
   * read's own rate (`bareSameRate`: the like-for-like ratio, the same requests a second).
   */
  atRate?: { rate: number; result: LoadResult; bareSelect: LoadResult; bareSameRate?: LoadResult };
  /** Single-connection probes of each rotated target, to show which one is slow. */
  probes?: Array<{ label: string; result: LoadResult }>;
  /** For a write: the jobs it started still waiting when its load stopped, and how long they took (job-backlog.ts). */
  jobs?: BacklogFigures;
}

/** The machine and data a run was taken on, printed first and kept in the JSON. */
export interface RunHeader {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  database: string;
  postgres: string;
  databaseSize: string;
  tickets: number;
  messages: number;
  processes: number;
  connections: number;
  durationSeconds: number;
  /** Seconds of each read's own load before its figure (absent in runs before the twenty-fifth stop: 2 requests a connection). */
  warmupSeconds?: number;
  /** The servers' statement_timeout: a longer query fails instead of running on. */
  statementTimeoutSeconds: number;
  /** The accept-encoding every request sent (gzipped answers decoded by the load), or none (null or absent). */
  acceptEncoding?: string | null;
}

/** A URL with its password replaced, for printing. */
export function maskedUrl(url: string): string {
  return url.replace(/:[^:@/]*@/, ':***@');
}

export function machine(): Pick<RunHeader, 'date' | 'node' | 'cores' | 'cpu'> {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
  };
}

export function printHeader(header: RunHeader): void {
  console.log(
    [
      `inbox bench ${header.date}`,
      `  node ${header.node}, ${header.cores} cores (${header.cpu}), ${header.postgres}`,
      `  ${header.database}: ${header.databaseSize}, bench-big ${header.tickets.toLocaleString('en')} tickets, ` +
        `${header.messages.toLocaleString('en')} messages`,
      `  server processes ${header.processes}, ${header.connections} connections, ${header.durationSeconds} s per figure` +
        `${header.warmupSeconds ? ` after ${header.warmupSeconds} s of warm-up (reads)` : ''}, ` +
        `statement_timeout ${header.statementTimeoutSeconds} s`,
      ...(header.acceptEncoding
        ? [`  every request: accept-encoding ${header.acceptEncoding} (answers decoded by the load)`]
        : []),
      '',
    ].join('\n'),
  );
}

/** Reads: the p95 as a multiple of the bare SELECT's p95. */
export function readFigure(key: string, label: string, result: LoadResult, bareSelect: LoadResult): Figure {
  const figure: Figure = { key, label, kind: 'read', result, ratio: result.p95 / bareSelect.p95 };
  console.log(formatResult(label, result, bareSelect));
  return figure;
}

/** Writes: the throughput as a share of the bare INSERT's. */
export function writeFigure(key: string, label: string, result: LoadResult, bareInsert: LoadResult): Figure {
  const ratio = result.rps / bareInsert.rps;
  console.log(`${formatResult(label, result)}  ${(ratio * 100).toFixed(0)}% of bare INSERT req/s`);
  return { key, label, kind: 'write', result, ratio };
}

export function bareFigure(key: string, label: string, result: LoadResult): Figure {
  console.log(formatResult(label, result));
  return { key, label, kind: 'bare', result, ratio: null };
}

/** A figure's open-loop line, indented under it: the same targets at a fixed rate. */
export function printAtRate(atRate: NonNullable<Figure['atRate']>): void {
  const { rate, result, bareSelect, bareSameRate } = atRate;
  console.log(`    ${formatResult(`at ${rate} req/s, open loop`, result, bareSelect)}`);
  if (bareSameRate) {
    console.log(`    ${formatResult(`bare SELECT at the same ${rate} req/s`, bareSameRate)}`);
    console.log(`${''.padEnd(47)}${(result.p95 / bareSameRate.p95).toFixed(1)}× its p95 at the same rate`);
  }
}

/** The per-target probes under a figure, indented, with their own p95 ratio. */
export function printProbes(
  probes: Array<{ label: string; result: LoadResult }>,
  bareSelect: LoadResult,
): void {
  for (const probe of probes) {
    console.log(`    ${formatResult(probe.label.slice(0, 42), probe.result, bareSelect)}`);
  }
}

/** Statuses other than 2xx, as "404×12 0×3", for the lines that had failures. */
export function failureStatuses(result: LoadResult): string {
  return Object.entries(result.statuses)
    .filter(([status]) => !(Number(status) >= 200 && Number(status) < 300))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

export function writeResults(file: string, header: RunHeader, figures: Figure[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ header, figures }, null, 2)}\n`);
}
