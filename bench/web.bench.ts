// Web app speed in Chromium: the initial JavaScript of the signed-in inbox, scrolling the ticket
// list through 10,000 loaded rows, and scrolling a chat room up through its 100,000 messages,
// each under a Chromium performance trace (long tasks over 50 ms, frame times).
// The server runs in its own process and serves apps/web/dist: run `npm run build` first.
// The three parts are in bench/lib: web-initial-scripts.ts, web-ticket-list.ts, web-chat-room.ts.
// Usage: npm run bench:web -- [--database-url URL] [--rows 10000] [--chat-messages 100000]
//          [--chat-seconds 240] [--stall-seconds 30] [--port 3470] [--web-dist DIR] [--only initial,list,chat] [--keep-traces]
//          [--trace-categories cc,viz,gpu] [--untraced] [--out FILE]   (default bench/results/web-<tickets>.json)
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFlags } from './lib/bench-db';
import { launchChromium } from './lib/chromium';
import type { ScrollFigures } from './lib/chromium-trace';
import { repoRoot, startServerProcess } from './lib/processes';
import { measureChatRoom } from './lib/web-chat-room';
import { measureInitialScripts } from './lib/web-initial-scripts';
import { pageLoadTimeoutMs, readDataset } from './lib/web-session';
import { measureTicketList } from './lib/web-ticket-list';
import { withTimeout } from './lib/with-timeout';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl =
  flags['database-url'] ??
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/bench';
const targetRows = Number(flags.rows ?? 10_000);
const chatTarget = Number(flags['chat-messages'] ?? 100_000);
const chatSeconds = Number(flags['chat-seconds'] ?? 240);
/** No older page for this long ends the chat room's scroll as a stall, which is then examined. */
const stallSeconds = Number(flags['stall-seconds'] ?? 30);
const port = Number(flags.port ?? 3470);
/** Which measurements to take: initial, list, chat (all by default). */
const parts = new Set((flags.only ?? 'initial,list,chat').split(','));
const traceOptions = {
  keepTraces: flags['keep-traces'] === 'true',
  callTimeoutMs: pageLoadTimeoutMs,
  extraCategories: flags['trace-categories']?.split(',').filter(Boolean),
  untraced: flags.untraced === 'true',
};

/** The built web app the server serves; --web-dist compares another build (e.g. of an older commit). */
const webDist = path.resolve(flags['web-dist'] ?? path.join(repoRoot, 'apps/web/dist'));
if (!existsSync(path.join(webDist, 'index.html'))) {
  console.error(
    'apps/web/dist/index.html is missing: run `npm run build` first (this bench builds nothing).',
  );
  process.exit(1);
}

function printScroll(label: string, figures: ScrollFigures): void {
  const frames =
    `${label.padEnd(34)} ${figures.durationSeconds}s  frames ${figures.frames}  frame p50 ${figures.frameP50} ms  ` +
    `p95 ${figures.frameP95} ms  max ${figures.frameMax} ms  missed frames ${figures.missedFrames}  `;
  const clock = traceOptions.untraced ? "the main thread's schedstat" : 'the trace';
  console.log(
    `${frames}long tasks >50 ms: ${figures.longTasks} ` +
      `(max ${figures.longTaskMax} ms; page saw ${figures.observedLongTasks}); ` +
      `by CPU time ${figures.cpuLongTasks} (max ${figures.cpuLongTaskMax} ms, from ${clock})`,
  );
  const main = figures.mainThread;
  console.log(
    `    main thread: busy ${main.busyMs} ms, CPU ${main.cpuMs} ms (${(main.cpuMs / Math.max(figures.frames, 1)).toFixed(1)} ms a frame); ${JSON.stringify(main.byKind)}`,
  );
  for (const task of figures.worstLongTasks)
    console.log(
      `    ${task.ms} ms (CPU ${task.cpuMs} ms${task.waitMs === undefined ? '' : `, at most ${task.cpuMsAtMost}; waiting for a core ${task.waitMs} ms`})  ${JSON.stringify(task.inside)}`,
    );
}

const failures: Record<string, string> = {};

/** One measurement; a failure is printed and written down, and the others still run. */
async function attempt<T>(label: string, measure: () => Promise<T>): Promise<T | null> {
  try {
    return await measure();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failures[label] = message;
    console.error(`\n${label} failed: ${message}`);
    return null;
  }
}

const dataset = await readDataset(databaseUrl);
console.log(
  `database ${new URL(databaseUrl).pathname.slice(1)}: bench-big has ${dataset.tickets} tickets; ` +
    `room ticket #${dataset.chatTicketId} holds ${dataset.roomMessages} messages; ${os.cpus().length} cores`,
);
const server = await startServerProcess({ databaseUrl, port, env: { WEB_DIST: webDist } });
const browser = await launchChromium();
try {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const scripts = parts.has('initial')
    ? await attempt('initial JS', () => measureInitialScripts(browser, server.url, webDist))
    : null;
  if (scripts) {
    console.log(
      `\n1. initial JS of /customer-service/inbox: ${scripts.chunks.length} scripts, transferred ${kb(scripts.transferred)}, ` +
        `decoded ${kb(scripts.decoded)}, gzip -9 ${kb(scripts.gzip)} (target ≤ 300 KB gzipped), brotli ${kb(scripts.brotli)}`,
    );
    for (const chunk of scripts.chunks)
      console.log(
        `    ${chunk.file.padEnd(52)} ${kb(chunk.decoded).padStart(10)}  gzip ${kb(chunk.gzip).padStart(9)}`,
      );
  }

  const list = parts.has('list')
    ? await attempt('ticket list', () => measureTicketList(browser, server.url, targetRows, traceOptions))
    : null;
  if (list) {
    console.log(
      `\n2. ticket list: ${list.rowsLoaded} rows loaded in ${list.loadSeconds}s (50 per page); ` +
        `the page's JS heap ${list.heapMb.used} MB used of ${list.heapMb.total} MB`,
    );
    printScroll('  one screen per frame, down', list.byScreen);
    printScroll('  one row per frame, 1,000 rows up', list.byRow);
    for (const [label, seen] of Object.entries(list.placement)) {
      console.log(
        `  rows ${label === 'afterScreens' ? 'after the screens down' : 'after the rows up'}: ${seen.rows} from index ${seen.firstIndex}; ` +
          `${seen.inPassing} in passing, ${seen.outOfOrder} out of order, ${seen.misplaced} misplaced`,
      );
      // Not a time: a row shown in the wrong place is a fault of the table, and fails the run.
      if (seen.inPassing + seen.outOfOrder + seen.misplaced > 0) {
        failures[`ticket list placement ${label}`] = JSON.stringify(seen);
        process.exitCode = 1;
      }
    }
  }

  const chat = parts.has('chat')
    ? await attempt('chat room', () =>
        measureChatRoom(
          browser,
          server.url,
          dataset.chatTicketId,
          { chatTarget, chatSeconds, stallSeconds },
          traceOptions,
        ),
      )
    : null;
  if (chat) {
    console.log(
      `\n3. chat room #${chat.ticketId}: scrolled up through ${chat.messagesScrolled} messages ` +
        `(${chat.olderPages} older pages; stopped: ${chat.stoppedBy})`,
    );
    printScroll('  one screen per frame, up', chat.scroll);
  }

  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    loadAverage: os.loadavg().map((value) => Math.round(value * 10) / 10),
    chromium: browser.version(),
    /** Without a trace, long tasks are the page's own, their CPU from the main thread's schedstat. */
    traced: !traceOptions.untraced,
    database: new URL(databaseUrl).pathname.slice(1),
    dataset,
    initialScripts: scripts,
    ticketList: list,
    chatRoom: chat,
    failures,
  };
  const out = flags.out
    ? path.resolve(flags.out)
    : path.join(repoRoot, 'bench/results', `web-${dataset.tickets}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten ${path.relative(repoRoot, out)} (load average ${result.loadAverage.join(' ')})`);
} finally {
  await withTimeout(browser.close(), 30_000, 'closing Chromium').catch((error: unknown) =>
    console.error(error),
  );
  await server.stop();
}
