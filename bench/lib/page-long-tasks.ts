// The page's own view of its long tasks (bench:web): its long-task and long-animation-frame
// observers, its clock against the bench's, and, untraced, each long task timed on the main
// thread's own clock (thread-clock.ts) with what the frames around it ran.
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import type { LongTask } from './chromium-trace';
import type { ThreadTime } from './thread-clock';
import { withTimeout } from './with-timeout';

/** A long task as the page's own observer saw it: start (page's performance.now()) and length. */
export type ObservedTask = [start: number, duration: number];

/** A long animation frame as the page saw it, with the scripts that ran in it (untraced runs). */
export interface ObservedFrame {
  start: number;
  duration: number;
  styleAndLayoutStart: number;
  scripts: Array<{ invoker: string; duration: number }>;
}

/**
 * Starts the page's own observers once per page (long tasks; long animation frames when untraced)
 * and empties what they hold, so that each stretch reads its own.
 */
export async function observeLongTasks(page: Page, frames: boolean, timeoutMs: number, label: string) {
  const observe = page.evaluate((withFrames) => {
    const state = window as unknown as {
      benchLongTasks: Array<[number, number]>;
      benchLongFrames: unknown[];
      benchObserving?: boolean;
    };
    state.benchLongTasks = [];
    state.benchLongFrames = [];
    if (state.benchObserving) return;
    state.benchObserving = true;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.benchLongTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask' });
    if (!withFrames) return;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const frame = entry as PerformanceEntry & {
          styleAndLayoutStart: number;
          scripts: Array<{ invoker: string; duration: number }>;
        };
        state.benchLongFrames.push({
          start: frame.startTime,
          duration: frame.duration,
          styleAndLayoutStart: frame.styleAndLayoutStart,
          scripts: frame.scripts.map((script) => ({ invoker: script.invoker, duration: script.duration })),
        });
      }
    }).observe({ type: 'long-animation-frame' });
  }, frames);
  await withTimeout(observe, timeoutMs, `${label}: long-task observer`);
}

/** What this process's performance.now() was when the page's read 0: one round trip's midpoint. */
export async function pageClockOffset(page: Page, timeoutMs: number, label: string): Promise<number> {
  const before = performance.now();
  const inPage = await withTimeout(
    page.evaluate(() => performance.now()),
    timeoutMs,
    `${label}: the page's clock`,
  );
  return (before + performance.now()) / 2 - inPage;
}

/**
 * The long tasks the page observed, each with its CPU time and its wait for a core from the main
 * thread's schedstat, and what the long animation frames around it spent their time on.
 */
export function untracedLongTasks(
  tasks: ObservedTask[],
  frames: ObservedFrame[],
  offset: number,
  thread: { timeIn(from: number, to: number): ThreadTime },
): LongTask[] {
  const tenths = (ms: number) => Math.round(ms * 10) / 10;
  return tasks.map(([start, duration]) => {
    const time = thread.timeIn(start + offset, start + duration + offset);
    const inside: Record<string, number> = {};
    for (const frame of frames) {
      if (frame.start > start + duration || frame.start + frame.duration < start) continue;
      for (const script of frame.scripts)
        inside[`script ${script.invoker}`] = (inside[`script ${script.invoker}`] ?? 0) + script.duration;
      if (frame.styleAndLayoutStart > 0)
        inside['style and layout'] =
          (inside['style and layout'] ?? 0) + frame.start + frame.duration - frame.styleAndLayoutStart;
    }
    const top = Object.entries(inside)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, ms]) => [name, Math.round(ms)]);
    return {
      ms: tenths(duration),
      cpuMs: time.cpuMs,
      waitMs: time.waitMs,
      cpuMsAtMost: time.cpuMsAtMost,
      inside: Object.fromEntries(top),
    };
  });
}
