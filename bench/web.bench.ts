// Web app speed in Chromium: the initial JavaScript of the signed-in inbox, scrolling the ticket
// list through 10,000 loaded rows, and scrolling a chat room up through its 100,000 messages,
// each under a Chromium performance trace (long tasks over 50 ms, frame times).
// The server runs in its own process and serves apps/web/dist: run `npm run build` first.
// Usage: npm run bench:web -- [--database-url URL] [--rows 10000] [--chat-messages 100000]
//          [--chat-seconds 240] [--port 3470] [--web-dist DIR] [--only initial,list,chat] [--keep-traces]
//          [--out FILE]   (default bench/results/web-<tickets>.json)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { storageKeys } from '../apps/web/src/shared/storage-keys';
import { parseFlags } from './lib/bench-db';
import {
  type FrameRun,
  figuresOfSamples,
  type ScrollFigures,
  type TracedSample,
  traced,
  withTimeout,
} from './lib/chromium-trace';
import { repoRoot, startServerProcess } from './lib/processes';

const flags = parseFlags(process.argv.slice(2));
const databaseUrl =
  flags['database-url'] ??
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/bench';
const targetRows = Number(flags.rows ?? 10_000);
const chatTarget = Number(flags['chat-messages'] ?? 100_000);
const chatSeconds = Number(flags['chat-seconds'] ?? 240);
const port = Number(flags.port ?? 3470);
/** Which measurements to take: initial, list, chat (all by default). */
const parts = new Set((flags.only ?? 'initial,list,chat').split(','));
const owner = { email: 'owner@bench-big.test', password: 'Bench1234!' };
const rowHeight = 52;
/** A page load (goto, load states) gives up after this; the run goes on or ends, never hangs. */
const pageLoadTimeoutMs = 10_000;
const traceOptions = { keepTraces: flags['keep-traces'] === 'true', callTimeoutMs: pageLoadTimeoutMs };
/** A wait for data on screen (the first rows of 1M tickets may be slow); failing it fails the part. */
const dataTimeoutMs = 60_000;

/** The built web app the server serves; --web-dist compares another build (e.g. of an older commit). */
const webDist = path.resolve(flags['web-dist'] ?? path.join(repoRoot, 'apps/web/dist'));
if (!existsSync(path.join(webDist, 'index.html'))) {
  console.error(
    'apps/web/dist/index.html is missing: run `npm run build` first (this bench builds nothing).',
  );
  process.exit(1);
}

/** What the big client holds, and the open ticket of its 100,000-message room (read-only SQL). */
async function readDataset(): Promise<{ tickets: number; chatTicketId: number; roomMessages: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tickets = await client.query<{ count: string }>(
      `select count(*) from tickets t join clients c on c.id = t.client_id where c.slug = 'bench-big'`,
    );
    const room = await client.query<{ id: string; room_id: string }>(
      `select t.id, t.room_id from tickets t
         join chat_rooms r on r.id = t.room_id
         join clients c on c.id = t.client_id
        where c.slug = 'bench-big' and r.name = 'Grosir Sentosa (100k)' and t.status in ('UNASSIGNED', 'ASSIGNED')
        order by t.id desc limit 1`,
    );
    if (!room.rows[0]) throw new Error("no open ticket in the room 'Grosir Sentosa (100k)' of bench-big");
    const messages = await client.query<{ count: string }>(
      'select count(*) from messages where room_id = $1',
      [room.rows[0].room_id],
    );
    return {
      tickets: Number(tickets.rows[0].count),
      chatTicketId: Number(room.rows[0].id),
      roomMessages: Number(messages.rows[0].count),
    };
  } finally {
    await client.end();
  }
}

/** A context whose pages start signed in as the owner, as after a reload; nothing cached. */
async function signedInContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const response = await fetch(`${baseUrl}/api/identity/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  if (!response.ok)
    throw new Error(`sign-in as ${owner.email} failed: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as { accessToken: string; refreshToken: string };
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1366, height: 768 },
    locale: 'id-ID',
    timezoneId: 'Asia/Jakarta',
  });
  // tsx names functions with esbuild's __name helper, which functions run in the page lack.
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  await context.addInitScript(
    ({ keys, pair }) => {
      if (!localStorage.getItem(keys.accessToken)) {
        localStorage.setItem(keys.accessToken, pair.accessToken);
        localStorage.setItem(keys.refreshToken, pair.refreshToken);
      }
    },
    { keys: storageKeys, pair: tokens },
  );
  return context;
}

interface ScriptChunk {
  file: string;
  transferred: number;
  decoded: number;
  gzip: number;
  brotli: number;
}

/** 1. Every script the signed-in inbox loads until idle: transferred, decoded and gzip bytes. */
async function measureInitialScripts(browser: Browser, baseUrl: string) {
  const context = await signedInContext(browser, baseUrl);
  const page = await context.newPage();
  await page.goto('/customer-service/inbox', { timeout: pageLoadTimeoutMs });
  // The owner reads VIEW_FEATURE, so the inbox hands over to the ticket view.
  await page
    .getByTestId('ticket-table')
    .waitFor({ timeout: dataTimeoutMs })
    .catch(async (error) => {
      const file = path.join(os.tmpdir(), 'web-bench-failure.png');
      await page.screenshot({ path: file, timeout: pageLoadTimeoutMs }).catch(() => undefined);
      throw new Error(`the ticket table did not show at ${page.url()} (screenshot ${file})`, {
        cause: error,
      });
    });
  // A page that keeps the network busy is measured as it stands after the wait.
  const networkIdle = await page
    .waitForLoadState('networkidle', { timeout: pageLoadTimeoutMs })
    .then(() => true)
    .catch(() => false);
  if (!networkIdle) console.error('  initial JS: the network was still busy after 10 s; measured as it was');
  await page.waitForTimeout(1000);
  const entries = await withTimeout(
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .concat(performance.getEntriesByType('navigation'))
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({
          url: entry.name,
          transferred: entry.transferSize,
          decoded: entry.decodedBodySize,
        })),
    ),
    pageLoadTimeoutMs,
    'initial JS: resource timings',
  );
  await context.close();
  const chunks: ScriptChunk[] = entries.map((entry) => {
    const file = new URL(entry.url).pathname;
    const local = path.join(webDist, file);
    const content = existsSync(local) ? readFileSync(local) : null;
    const gzip = content ? gzipSync(content, { level: 9 }).length : 0;
    const brotli = content
      ? brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
      : 0;
    return { file, transferred: entry.transferred, decoded: entry.decoded, gzip, brotli };
  });
  chunks.sort((a, b) => b.decoded - a.decoded);
  const sum = (key: 'transferred' | 'decoded' | 'gzip' | 'brotli') =>
    chunks.reduce((total, chunk) => total + chunk[key], 0);
  return {
    networkIdle,
    chunks,
    transferred: sum('transferred'),
    decoded: sum('decoded'),
    gzip: sum('gzip'),
    brotli: sum('brotli'),
  };
}

/**
 * Scrolls an element in steps of `step` px, one per animation frame, and returns the frame
 * times. A frame that does not come within 100 ms is counted as missed and the scroll goes
 * on; the run stops at its distance, at the edge, or after `maxSeconds`.
 */
async function scrollByFrames(
  page: Page,
  selector: string,
  step: number,
  rows: number,
  maxSeconds = 120,
): Promise<FrameRun> {
  const run = page.evaluate(
    async ({ selector, step, rows, maxMs }) => {
      const element = document.querySelector<HTMLElement>(selector);
      if (!element) throw new Error(`${selector} is not on the page`);
      const nextFrame = () =>
        new Promise<number | null>((resolve) => {
          const fallback = setTimeout(() => resolve(null), 100);
          requestAnimationFrame((time) => {
            clearTimeout(fallback);
            resolve(time);
          });
        });
      const distance = Math.min(rows * 52, element.scrollHeight);
      const start = element.scrollTop;
      const started = performance.now();
      const deltas: number[] = [];
      let missedFrames = 0;
      let last: number | undefined;
      while (performance.now() - started < maxMs) {
        const time = await nextFrame();
        if (time === null) {
          missedFrames += 1;
          last = undefined;
        } else {
          if (last !== undefined) deltas.push(time - last);
          last = time;
        }
        const moved = Math.abs(element.scrollTop - start);
        const atEdge =
          step > 0
            ? element.scrollTop + element.clientHeight >= element.scrollHeight - 1
            : element.scrollTop <= 0;
        if (moved >= distance || atEdge) return { deltas, missedFrames, timedOut: false };
        element.scrollTop += step;
      }
      return { deltas, missedFrames, timedOut: true };
    },
    { selector, step, rows, maxMs: maxSeconds * 1000 },
  );
  return withTimeout(run, maxSeconds * 1000 + 30_000, `scroll of ${selector}`);
}

/** 2. The ticket view: load `targetRows` rows page by page, then scroll through them under a trace. */
async function measureTicketList(browser: Browser, baseUrl: string) {
  const context = await signedInContext(browser, baseUrl);
  const page = await context.newPage();
  await page.goto('/customer-service/ticket-view', { timeout: pageLoadTimeoutMs });
  const table = page.getByTestId('ticket-table');
  await table.waitFor({ timeout: dataTimeoutMs });
  // The screen opens on tickets created today; clearing the created filter lists them all.
  const createdLabel = '[aria-label="Tanggal dibuat"], [aria-label="Created date"]';
  await page
    .locator('.mantine-Input-wrapper', { has: page.locator(createdLabel) })
    .locator(`button:not(${createdLabel.replaceAll(', ', '):not(')})`)
    .click({ timeout: pageLoadTimeoutMs });
  await page.getByTestId('ticket-row').first().waitFor({ timeout: dataTimeoutMs });

  const loadStarted = performance.now();
  // The loop below stops itself after 15 s without a new page; the outer limit is for a dead page.
  const loaded = await withTimeout(
    page.evaluate(
      async ({ targetRows }) => {
        // Looked up each time: the screen swaps the table for an error when a page fails.
        const table = () => document.querySelector<HTMLElement>('[data-testid="ticket-table"]');
        const count = () => Number(table()?.querySelector('table')?.getAttribute('aria-rowcount') ?? 0);
        let stalledSince = performance.now();
        let last = count();
        while (table() && count() < targetRows && performance.now() - stalledSince < 15_000) {
          table()!.scrollTop = table()!.scrollHeight;
          await new Promise((resolve) => setTimeout(resolve, 30));
          if (count() !== last) {
            last = count();
            stalledSince = performance.now();
          }
        }
        const element = table();
        if (element) element.scrollTop = 0;
        return element ? count() : -last;
      },
      { targetRows },
    ),
    15 * 60_000,
    'loading the ticket list',
  );
  if (loaded <= 0) {
    const shown = await page.getByRole('alert').allInnerTexts();
    throw new Error(`the ticket list failed after ${-loaded} rows; the screen says: ${shown.join(' | ')}`);
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  // A later page that failed leaves the loaded rows and says why under them.
  const pageError = (await page.getByRole('alert').allInnerTexts()).join(' | ') || null;
  if (pageError) console.error(`  the ticket list stopped at ${loaded} rows: ${pageError}`);
  await page.waitForTimeout(500);

  const screen = await table.evaluate((element) => element.clientHeight, undefined, {
    timeout: pageLoadTimeoutMs,
  });
  const byScreen = figuresOfSamples([
    await traced(
      browser,
      page,
      'ticket-list-screen',
      () => scrollByFrames(page, '[data-testid="ticket-table"]', screen, loaded),
      traceOptions,
    ),
  ]);
  const byRow = figuresOfSamples([
    await traced(
      browser,
      page,
      'ticket-list-row',
      () => scrollByFrames(page, '[data-testid="ticket-table"]', -rowHeight, 1_000),
      traceOptions,
    ),
  ]);
  await context.close();
  return { rowsLoaded: loaded, pageError, loadSeconds: Math.round(loadSeconds * 10) / 10, byScreen, byRow };
}

/** 3. The chat room: from the newest message, scroll up through as many older pages as the room gives. */
async function measureChatRoom(browser: Browser, baseUrl: string, ticketId: number) {
  const context = await signedInContext(browser, baseUrl);
  const page = await context.newPage();
  let olderMessages = 0;
  let olderPages = 0;
  let noMoreOlder = false;
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/csp/chat' || !url.searchParams.has('before') || !response.ok()) return;
    void response
      .json()
      .then((body: { messages: unknown[]; hasMore: boolean }) => {
        olderPages += 1;
        olderMessages += body.messages.length;
        if (!body.hasMore) noMoreOlder = true;
      })
      .catch(() => undefined);
  });
  await page.goto(`/customer-service/inbox-chatroom?referenceId=${ticketId}`, {
    timeout: pageLoadTimeoutMs,
  });
  const scroller = page.getByTestId('message-scroller');
  await scroller.waitFor({ timeout: dataTimeoutMs });
  await page
    .locator('[data-testid="message-scroller"] [data-index]')
    .first()
    .waitFor({ timeout: dataTimeoutMs });
  await page.waitForTimeout(1000);
  const firstPage = await page.locator('[data-testid="message-scroller"] [data-index]').count();

  // Traced in stretches of up to a minute: one trace of a long scroll outgrows what Node can parse.
  const started = Date.now();
  const deadline = started + chatSeconds * 1000;
  const stallMs = 30_000;
  let lastProgress = { at: Date.now(), pages: 0 };
  /** Why the scroll ended; null while it goes on. */
  const stopReason = (): string | null => {
    if (olderPages !== lastProgress.pages) lastProgress = { at: Date.now(), pages: olderPages };
    if (noMoreOlder) return 'reached the start of the room';
    if (olderMessages + firstPage >= chatTarget) return `reached ${chatTarget} messages`;
    if (Date.now() >= deadline) return `time up (${chatSeconds}s)`;
    if (Date.now() - lastProgress.at >= stallMs) return `no older page for ${stallMs / 1000}s`;
    return null;
  };
  const samples: TracedSample[] = [];
  let stoppedBy: string | null = null;
  while (!stoppedBy) {
    const stretchEnd = Math.min(deadline, Date.now() + 60_000);
    const stretchMs = stretchEnd - Date.now();
    try {
      samples.push(
        await traced(
          browser,
          page,
          `chat-room-${samples.length + 1}`,
          async () => {
            // One screen up per frame until told to stop; a frame that does not come within
            // 100 ms is counted as missed, and the loop ends by itself a little after the stretch.
            const running = page.evaluate(
              async ({ maxMs }) => {
                const element = document.querySelector<HTMLElement>('[data-testid="message-scroller"]');
                if (!element) throw new Error('the message scroller left the page');
                const state = window as unknown as { benchStopScroll?: boolean };
                state.benchStopScroll = false;
                const nextFrame = () =>
                  new Promise<number | null>((resolve) => {
                    const fallback = setTimeout(() => resolve(null), 100);
                    requestAnimationFrame((time) => {
                      clearTimeout(fallback);
                      resolve(time);
                    });
                  });
                const started = performance.now();
                const deltas: number[] = [];
                let missedFrames = 0;
                let last: number | undefined;
                while (!state.benchStopScroll) {
                  if (performance.now() - started >= maxMs) return { deltas, missedFrames, timedOut: true };
                  const time = await nextFrame();
                  if (time === null) {
                    missedFrames += 1;
                    last = undefined;
                  } else {
                    if (last !== undefined) deltas.push(time - last);
                    last = time;
                  }
                  element.scrollTop -= element.clientHeight;
                }
                return { deltas, missedFrames, timedOut: false };
              },
              { maxMs: stretchMs + 5_000 },
            );
            // A failure of the scroll shows at once, not after the stretch.
            let failed: unknown = null;
            running.catch((error: unknown) => {
              failed = error;
            });
            while (Date.now() < stretchEnd && !stopReason() && !failed) await page.waitForTimeout(250);
            await withTimeout(
              page.evaluate(() => {
                (window as unknown as { benchStopScroll: boolean }).benchStopScroll = true;
              }),
              pageLoadTimeoutMs,
              'chat room: stop signal',
            ).catch(() => undefined);
            return withTimeout(running, stretchMs + 20_000, 'chat room: scroll stretch');
          },
          traceOptions,
        ),
      );
    } catch (error) {
      // What was measured before the failure is kept and reported with the reason.
      stoppedBy = `failed: ${error instanceof Error ? error.message : String(error)}`;
      console.error(`  chat room: ${stoppedBy}`);
      break;
    }
    stoppedBy = stopReason();
    console.log(
      `  chat room: ${Math.round((Date.now() - started) / 1000)}s, ${olderMessages + firstPage} messages, ` +
        `${olderPages} older pages${stoppedBy ? ` — stopped: ${stoppedBy}` : ''}`,
    );
  }
  const figures = figuresOfSamples(samples);
  const inMemory = await withTimeout(
    page.evaluate(
      () =>
        document.querySelector('[data-testid="message-scroller"] > div')?.getBoundingClientRect().height ?? 0,
    ),
    pageLoadTimeoutMs,
    'chat room: list height',
  ).catch(() => 0);
  await withTimeout(context.close(), pageLoadTimeoutMs, 'chat room: close').catch(() => undefined);
  return {
    ticketId,
    messagesScrolled: olderMessages + firstPage,
    olderPages,
    reachedStart: noMoreOlder,
    stoppedBy,
    listHeightPx: Math.round(inMemory),
    scroll: figures,
  };
}

function printScroll(label: string, figures: ScrollFigures): void {
  console.log(
    `${label.padEnd(34)} ${figures.durationSeconds}s  frames ${figures.frames}  frame p50 ${figures.frameP50} ms  ` +
      `p95 ${figures.frameP95} ms  max ${figures.frameMax} ms  missed frames ${figures.missedFrames}  long tasks >50 ms: ${figures.longTasks} ` +
      `(max ${figures.longTaskMax} ms; page saw ${figures.observedLongTasks}); ` +
      `by CPU time ${figures.cpuLongTasks} (max ${figures.cpuLongTaskMax} ms)`,
  );
  const main = figures.mainThread;
  console.log(
    `    main thread: busy ${main.busyMs} ms, CPU ${main.cpuMs} ms (${(main.cpuMs / Math.max(figures.frames, 1)).toFixed(1)} ms a frame); ${JSON.stringify(main.byKind)}`,
  );
  for (const task of figures.worstLongTasks)
    console.log(`    ${task.ms} ms (CPU ${task.cpuMs} ms)  ${JSON.stringify(task.inside)}`);
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

const dataset = await readDataset();
console.log(
  `database ${new URL(databaseUrl).pathname.slice(1)}: bench-big has ${dataset.tickets} tickets; ` +
    `room ticket #${dataset.chatTicketId} holds ${dataset.roomMessages} messages; ${os.cpus().length} cores`,
);
const server = await startServerProcess({ databaseUrl, port, env: { WEB_DIST: webDist } });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const scripts = parts.has('initial')
    ? await attempt('initial JS', () => measureInitialScripts(browser, server.url))
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
    ? await attempt('ticket list', () => measureTicketList(browser, server.url))
    : null;
  if (list) {
    console.log(`\n2. ticket list: ${list.rowsLoaded} rows loaded in ${list.loadSeconds}s (50 per page)`);
    printScroll('  one screen per frame, down', list.byScreen);
    printScroll('  one row per frame, 1,000 rows up', list.byRow);
  }

  const chat = parts.has('chat')
    ? await attempt('chat room', () => measureChatRoom(browser, server.url, dataset.chatTicketId))
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
