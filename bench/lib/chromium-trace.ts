// Reading a Chromium performance trace taken while a page scrolls (bench:web): long tasks over
// 50 ms by wall clock and by CPU time, frame times, and what the page's main thread spent its
// time on over the run (JavaScript, collections, style, layout, paint).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import {
  type ObservedFrame,
  type ObservedTask,
  observeLongTasks,
  pageClockOffset,
  untracedLongTasks,
} from './page-long-tasks';
import { sampleRendererMainThreads } from './thread-clock';
import { withTimeout } from './with-timeout';

/** A task over this long (wall clock or CPU time) is a long task. */
const longTaskMs = 50;

export interface TraceOptions {
  /** Writes the trace to the system's temp folder and prints where. */
  keepTraces?: boolean;
  /** How long a page call (evaluate, start tracing) may take before the sample fails. */
  callTimeoutMs?: number;
  /** Categories traced beside the bench's own (`cc`, `viz`, `gpu`…), to see why frames stop. */
  extraCategories?: string[];
  /**
   * No Chromium trace: the frame times, and the long tasks the page's own observer sees, each
   * with its CPU time read off the main thread's schedstat instead of the trace, to see whether
   * tracing changes what is measured.
   */
  untraced?: boolean;
}

/** Frame times of a scroll run in the page, and the frames that never came. */
export interface FrameRun {
  deltas: number[];
  /** Waits for an animation frame that fell back after 100 ms (no frame produced). */
  missedFrames: number;
  /** The run hit its time limit before reaching its distance or its stop signal. */
  timedOut: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** CPU time of the thread inside the event: wall time less the time it waited for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

export interface LongTask {
  ms: number;
  /** CPU time of the task; far below `ms` when other processes held the cores. */
  cpuMs: number;
  /** Untraced only: the time the main thread waited, runnable, for a core (schedstat). */
  waitMs?: number;
  /** Untraced only: the CPU between the thread's readings just outside the task (an upper bound). */
  cpuMsAtMost?: number;
  /** The heaviest kinds of work inside the task (JS, layout, style…), in ms, for diagnosis. */
  inside: Record<string, number>;
}

/** Work names worth naming inside a long task. */
const insideNames = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.compile',
  'Layout',
  'UpdateLayoutTree',
  'PrePaint',
  'Paint',
  'Layerize',
  'ParseHTML',
  'MinorGC',
  'MajorGC',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'XHRReadyStateChange',
  'HitTest',
]);

/** What the page's main thread did over a whole run: its tasks' time, and the heavy kinds of work. */
export interface MainThreadTotals {
  /** Wall-clock ms inside tasks, and the CPU ms of those tasks. */
  busyMs: number;
  cpuMs: number;
  /** Ms by kind of work, each stretch once; kinds nest in each other (a FunctionCall holds a MajorGC), so they do not add up. */
  byKind: Record<string, number>;
}

const totalKinds = ['FunctionCall', 'MajorGC', 'MinorGC', 'UpdateLayoutTree', 'Layout', 'Paint'];

function mainThreadEvents(trace: Buffer): TraceEvent[] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events
      .filter(
        (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  return events.filter((event) => mainThreads.has(`${event.pid}:${event.tid}`) && event.ph === 'X');
}

/**
 * Microseconds inside events of one kind, each stretch counted once: an event of the kind
 * nested in another of it (a composited layer's Paint inside the document's) adds nothing.
 */
function outermostDuration(events: TraceEvent[]): number {
  let total = 0;
  let coveredUntil = -1;
  for (const event of [...events].sort((a, b) => a.ts - b.ts)) {
    const end = event.ts + (event.dur ?? 0);
    if (event.ts < coveredUntil) continue;
    total += event.dur ?? 0;
    coveredUntil = end;
  }
  return total;
}

/**
 * The main thread's totals over the run. Long tasks are rare events and their count swings
 * from run to run on shared cores; the time spent per kind of work compares two builds better.
 */
function mainThreadTotalsOf(onMain: TraceEvent[]): MainThreadTotals {
  const ms = (microseconds: number) => Math.round(microseconds / 1000);
  const runTasks = onMain.filter((event) => event.name === 'RunTask');
  const byKind: Record<string, number> = {};
  for (const kind of totalKinds)
    byKind[kind] = ms(outermostDuration(onMain.filter((event) => event.name === kind)));
  return {
    busyMs: ms(outermostDuration(runTasks)),
    cpuMs: ms(runTasks.reduce((sum, task) => sum + (task.tdur ?? 0), 0)),
    byKind,
  };
}

/** Long tasks of the page's main thread in a Chromium trace, with what they spent time on. */
function longTasksOf(onMain: TraceEvent[]): LongTask[] {
  const tasks = onMain.filter((event) => event.name === 'RunTask' && (event.dur ?? 0) > longTaskMs * 1000);
  const tenths = (microseconds: number | undefined) => Math.round((microseconds ?? 0) / 100) / 10;
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside: Record<string, number> = {};
    for (const event of onMain) {
      if (event.pid !== task.pid || event.tid !== task.tid || !insideNames.has(event.name)) continue;
      if (event.ts < task.ts || event.ts > end) continue;
      inside[event.name] = (inside[event.name] ?? 0) + (event.dur ?? 0) / 1000;
    }
    const top = Object.entries(inside)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, ms]) => [name, Math.round(ms)]);
    return { ms: tenths(task.dur), cpuMs: tenths(task.tdur), inside: Object.fromEntries(top) };
  });
}

export interface ScrollFigures {
  durationSeconds: number;
  frames: number;
  /** Animation frames waited for in vain (100 ms each); a run of them means the page stopped drawing. */
  missedFrames: number;
  frameP50: number;
  frameP95: number;
  frameMax: number;
  longTasks: number;
  longTaskMax: number;
  /** Tasks whose CPU time alone passed 50 ms: the page's own cost, whatever else ran on the machine. */
  cpuLongTasks: number;
  cpuLongTaskMax: number;
  /** Long tasks the page itself observed (PerformanceObserver 'longtask'), as a cross-check. */
  observedLongTasks: number;
  worstLongTasks: LongTask[];
  mainThread: MainThreadTotals;
}

function figuresOf(
  frameDeltas: number[],
  tasks: LongTask[],
  observed: number,
  seconds: number,
  missedFrames: number,
  mainThread: MainThreadTotals,
): ScrollFigures {
  const sorted = [...frameDeltas].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    durationSeconds: round(seconds),
    frames: frameDeltas.length,
    missedFrames,
    frameP50: round(percentile(sorted, 50)),
    frameP95: round(percentile(sorted, 95)),
    frameMax: round(sorted.at(-1) ?? 0),
    longTasks: tasks.length,
    longTaskMax: tasks.reduce((max, task) => Math.max(max, task.ms), 0),
    cpuLongTasks: tasks.filter((task) => task.cpuMs > longTaskMs).length,
    cpuLongTaskMax: tasks.reduce((max, task) => Math.max(max, task.cpuMs), 0),
    observedLongTasks: observed,
    worstLongTasks: [...tasks].sort((a, b) => b.ms - a.ms).slice(0, 5),
    mainThread,
  };
}

const traceCategories = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink.user_timing',
];

/** One traced stretch: its frames, long tasks and main-thread totals. */
export interface TracedSample {
  deltas: number[];
  missedFrames: number;
  tasks: LongTask[];
  observed: number;
  seconds: number;
  mainThread: MainThreadTotals;
  /** Untraced only: how many readings of the main thread's schedstat the stretch took. */
  schedstatReadings?: number;
}

function addTotals(a: MainThreadTotals, b: MainThreadTotals): MainThreadTotals {
  const byKind = { ...a.byKind };
  for (const [kind, ms] of Object.entries(b.byKind)) byKind[kind] = (byKind[kind] ?? 0) + ms;
  return { busyMs: a.busyMs + b.busyMs, cpuMs: a.cpuMs + b.cpuMs, byKind };
}

/** Figures of one or more traced stretches taken one after the other. */
export function figuresOfSamples(samples: TracedSample[]): ScrollFigures {
  return figuresOf(
    samples.flatMap((sample) => sample.deltas),
    samples.flatMap((sample) => sample.tasks),
    samples.reduce((sum, sample) => sum + sample.observed, 0),
    samples.reduce((sum, sample) => sum + sample.seconds, 0),
    samples.reduce((sum, sample) => sum + sample.missedFrames, 0),
    samples.map((sample) => sample.mainThread).reduce(addTotals),
  );
}

/**
 * Runs `work` under a Chromium trace and in-page long-task observation; returns the figures.
 * Untraced, the long tasks are the page's own observer's, each timed on the main thread's own
 * clock (schedstat, `thread-clock.ts`), and the main thread's CPU is that clock's.
 */
export async function traced(
  browser: Browser,
  page: Page,
  label: string,
  work: () => Promise<FrameRun>,
  options: TraceOptions = {},
): Promise<TracedSample> {
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const tracing = !options.untraced;
  await observeLongTasks(page, !tracing, callTimeoutMs, label);
  const offset = tracing ? 0 : await pageClockOffset(page, callTimeoutMs, label);
  const sampler = tracing ? null : sampleRendererMainThreads();
  if (tracing)
    await withTimeout(
      browser.startTracing(page, { categories: [...traceCategories, ...(options.extraCategories ?? [])] }),
      callTimeoutMs,
      `${label}: start tracing`,
    );
  const started = performance.now();
  const run = await work().catch(async (error: unknown) => {
    if (tracing) await withTimeout(browser.stopTracing(), 60_000, 'stop tracing').catch(() => undefined);
    sampler?.stop();
    throw error;
  });
  const seconds = (performance.now() - started) / 1000;
  const thread = sampler?.stop() ?? null;
  // A minute's trace can take a while to hand over; two minutes without it is a hang.
  const trace = tracing ? await withTimeout(browser.stopTracing(), 120_000, `${label}: stop tracing`) : null;
  if (trace && options.keepTraces) {
    const file = path.join(os.tmpdir(), `web-bench-${label}-${Date.now()}.json`);
    writeFileSync(file, trace);
    console.log(
      `  trace: ${file} (${(trace.length / 1e6).toFixed(0)} MB; open in chrome://tracing or DevTools)`,
    );
  }
  const seen = await withTimeout(
    page.evaluate(() => {
      const state = window as unknown as { benchLongTasks: unknown; benchLongFrames: unknown };
      return { tasks: state.benchLongTasks, frames: state.benchLongFrames };
    }),
    callTimeoutMs,
    `${label}: long-task count`,
  );
  const observedTasks = seen.tasks as ObservedTask[];
  if (run.timedOut) console.error(`  ${label}: stopped at its time limit`);
  if (thread) {
    const totals = thread.totals();
    return {
      deltas: run.deltas,
      missedFrames: run.missedFrames,
      tasks: untracedLongTasks(observedTasks, seen.frames as ObservedFrame[], offset, thread),
      observed: observedTasks.length,
      seconds,
      // Untraced, busy is the time the main thread ran or waited, runnable, for a core.
      mainThread: { busyMs: totals.cpuMs + totals.waitMs, cpuMs: totals.cpuMs, byKind: {} },
      schedstatReadings: thread.readingsTaken,
    };
  }
  const onMain = trace ? mainThreadEvents(trace) : [];
  return {
    deltas: run.deltas,
    missedFrames: run.missedFrames,
    tasks: longTasksOf(onMain),
    observed: observedTasks.length,
    seconds,
    mainThread: mainThreadTotalsOf(onMain),
  };
}
