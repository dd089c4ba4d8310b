import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InboundContext, PreparedConversation } from './inbound-sources';

/** What a socket worker is told to do, one command at a time, over IPC. */
export type WorkerCommand =
  | { cmd: 'sign-in'; baseUrl: string; agents: number; domain: string; password: string }
  | { cmd: 'connect-agents'; baseUrl: string; agents: number; socketsPerAgent: number; bare: boolean }
  | { cmd: 'receipts' }
  | { cmd: 'frames' }
  | { cmd: 'reset-receipts' }
  | { cmd: 'prepare'; source: string; ctx: InboundContext }
  | { cmd: 'open-loop'; rate: number; durationSeconds: number; conversations: number[]; runTag: string }
  | {
      cmd: 'closed-loop';
      concurrency: number;
      durationSeconds: number;
      conversations: number[];
      perConversation: number;
      runTag: string;
    }
  | { cmd: 'close' };

/** Marker → the times (epoch ms, sub-ms) each of the expected agent's sockets heard it. */
export interface Receipts {
  receipts: Array<[string, number[]]>;
  /** Marked events heard by an agent the conversation does not belong to. */
  elsewhere: number;
  openSockets: number;
  closedSockets: number;
}

export interface OpenLoopResult {
  /** [marker, sent at (epoch ms), ack after (ms) or -1 when never acknowledged] */
  sent: Array<[string, number, number]>;
  errors: Record<string, number>;
  offeredRate: number;
  /** Seconds after the last send until every message was answered (or the wait gave up). */
  drainSeconds: number;
}

export interface ClosedLoopResult {
  acked: number;
  errors: Record<string, number>;
  seconds: number;
  /** True when every conversation used its allowance before the time was up. */
  exhausted: boolean;
  ackMs: { p50: number; p99: number; max: number };
}

export interface WorkerResults {
  'sign-in': string[];
  'connect-agents': number;
  receipts: Receipts;
  'reset-receipts': null;
  frames: number;
  prepare: PreparedConversation[];
  'open-loop': OpenLoopResult;
  'closed-loop': ClosedLoopResult;
  close: null;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** A socket load process (bench/lib/socket-worker.ts) the bench talks to over IPC. */
export class SocketWorker {
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (value: never) => void; reject: (error: Error) => void }
  >();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (raw) => {
      const reply = raw as { id: number; ok: boolean; result?: unknown; error?: string };
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.result as never);
      else waiter?.reject(new Error(reply.error));
    });
    child.on('exit', (code) => {
      for (const waiter of this.waiting.values())
        waiter.reject(new Error(`socket worker exited with ${code}`));
      this.waiting.clear();
    });
  }

  /** Starts a worker process; `label` names it in errors. */
  static start(label: string): SocketWorker {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'socket-worker.ts'), label], {
      cwd: path.resolve(here, '../..'),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new SocketWorker(child);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  request<C extends WorkerCommand>(command: C): Promise<WorkerResults[C['cmd']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: never) => void, reject });
      this.child.send({ id, command });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.request({ cmd: 'close' }).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
