import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CpuSplit, formatCpuSplit } from './cpu';

export interface LoadTarget {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Sent as JSON; every "{{unique}}" in it becomes a value no other request ever had (idempotency keys). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoadSpec {
  /** One or more servers; requests are spread over them in turn. */
  baseUrls: string[];
  /** Keep-alive connections per server, each with one request in flight. */
  connections: number;
  /** Stop after this many requests, or after durationSeconds (default 10 s when neither is set). */
  requests?: number;
  durationSeconds?: number;
  /** Requests made and thrown away first. */
  warmupRequests?: number;
  headers?: Record<string, string>;
  /** Taken in turn, request by request. */
  targets: LoadTarget[];
  /**
   * Open loop: requests start at this fixed rate a second, whether or not earlier ones have
   * answered, and each is timed from when it was due (a late start counts against the server,
   * so a stall is not hidden by the load waiting for it). `connections` then caps the sockets;
   * a request waiting for one waits on the clock. Without it the load is a closed loop: each
   * connection sends its next request when the last one answers, which saturates the machine.
   */
  rate?: number;
}

export interface LoadResult {
  count: number;
  failures: number;
  statuses: Record<string, number>;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** The load process's own CPU per request while it measured, in ms. */
  loadCpuMs?: number;
  /** Bytes of body a request, as sent on the wire (compressed when the server compressed it). */
  bodyBytes?: number;
  /** CPU per request by process, when the bench counted the servers' and PostgreSQL's. */
  cpu?: CpuSplit;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Runs the load in a separate Node process and returns what it measured. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'load-worker.ts'), JSON.stringify(spec)],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as LoadResult);
    });
  });
}

/** One line of the bench's table: the figure, and its ratio to the bare limit when given. */
export function formatResult(label: string, result: LoadResult, bare?: LoadResult): string {
  const ratio = bare ? `  ${(result.p95 / bare.p95).toFixed(1)}× bare p95` : '';
  return (
    `${label.padEnd(46)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)}  ` +
    `p95 ${result.p95.toFixed(1)}  p99 ${result.p99.toFixed(1)}  max ${result.max.toFixed(1)} ms` +
    `  fail ${result.failures}${ratio}` +
    (result.cpu ? `\n${''.padEnd(47)}${formatCpuSplit(result.cpu)}` : '')
  );
}
