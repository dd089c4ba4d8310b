// A thread's own clock without a Chromium trace (bench:web --untraced): Linux counts, for each
// thread, the nanoseconds it ran on a core and the nanoseconds it waited, runnable, for one
// (/proc/<pid>/task/<tid>/schedstat). Sampled every few ms from the bench's process, it gives a
// long task's CPU time (and its wait for a core) from outside the browser, so tracing, which
// changes what the page does, is not needed for it.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { descendantPids } from './cpu';

/** One reading of a thread: when (this process's performance.now()), and its ns run and waiting. */
interface Reading {
  at: number;
  runNs: number;
  waitNs: number;
}

function readSchedstat(pid: number): { runNs: number; waitNs: number } | null {
  try {
    // The main thread of a process has the process's own id as its thread id.
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ');
    return { runNs: Number(run), waitNs: Number(wait) };
  } catch {
    return null;
  }
}

/** Chromium's renderer processes below this process (the bench launched the browser). */
function rendererPids(): number[] {
  return descendantPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** A stretch's time on a thread: CPU, waiting for a core, and the CPU's upper bound from the readings around it. */
export interface ThreadTime {
  cpuMs: number;
  waitMs: number;
  /** The CPU between the last reading before the stretch and the first after it. */
  cpuMsAtMost: number;
}

/** The readings of one thread, in time order. */
class ThreadReadings {
  readonly readings: Reading[] = [];

  /** The index of the last reading at or before `at` (-1 when none is). */
  private lastAtOrBefore(at: number): number {
    let low = -1;
    let high = this.readings.length;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (this.readings[middle].at <= at) low = middle;
      else high = middle;
    }
    return low;
  }

  /** The counter's value at `at`, read off a straight line between the readings around it. */
  private valueAt(at: number, key: 'runNs' | 'waitNs'): number {
    const list = this.readings;
    if (list.length === 0) return 0;
    const low = this.lastAtOrBefore(at);
    if (low < 0) return list[0][key];
    if (low === list.length - 1) return list[low][key];
    const a = list[low];
    const b = list[low + 1];
    return a[key] + ((b[key] - a[key]) * (at - a.at)) / Math.max(b.at - a.at, 1e-6);
  }

  /** The readings just outside [from, to]. */
  private around(from: number, to: number): [Reading, Reading] | null {
    const before = this.readings[this.lastAtOrBefore(from)];
    const last = this.lastAtOrBefore(to);
    const after = this.readings[last >= 0 && this.readings[last].at === to ? last : last + 1];
    return before && after ? [before, after] : null;
  }

  timeIn(from: number, to: number): ThreadTime {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const outer = this.around(from, to);
    const cpu = this.valueAt(to, 'runNs') - this.valueAt(from, 'runNs');
    return {
      cpuMs: ms(cpu),
      waitMs: ms(this.valueAt(to, 'waitNs') - this.valueAt(from, 'waitNs')),
      cpuMsAtMost: ms(outer ? outer[1].runNs - outer[0].runNs : cpu),
    };
  }

  /** Run and wait over the whole sampling, in ms. */
  totals(): { cpuMs: number; waitMs: number } {
    const first = this.readings[0];
    const last = this.readings[this.readings.length - 1];
    if (!first || !last) return { cpuMs: 0, waitMs: 0 };
    return {
      cpuMs: Math.round((last.runNs - first.runNs) / 1e6),
      waitMs: Math.round((last.waitNs - first.waitNs) / 1e6),
    };
  }
}

/**
 * Samples the main thread of every renderer every `everyMs` until stopped. The page's renderer
 * is the one whose main thread ran most: an idle spare renderer does not move.
 */
export function sampleRendererMainThreads(everyMs = 4) {
  const threads = new Map<number, ThreadReadings>();
  for (const pid of rendererPids()) threads.set(pid, new ThreadReadings());
  const read = () => {
    const at = performance.now();
    for (const [pid, readings] of threads) {
      const value = readSchedstat(pid);
      if (value) readings.readings.push({ at, ...value });
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      let readings = threads.values().next().value ?? new ThreadReadings();
      for (const candidate of threads.values())
        if (candidate.totals().cpuMs > readings.totals().cpuMs) readings = candidate;
      return {
        readingsTaken: readings.readings.length,
        timeIn: (from: number, to: number) => readings.timeIn(from, to),
        totals: () => readings.totals(),
      };
    },
  };
}
