// The web bench's second part (bench:web): the ticket view loads rows page by page, then scrolls
// through them under a Chromium trace, one screen per frame down and one row per frame up.
import type { Browser, Page } from 'playwright-core';
import { type FrameRun, figuresOfSamples, type TraceOptions, traced } from './chromium-trace';
import { dataTimeoutMs, pageLoadTimeoutMs, signedInContext } from './web-session';
import { withTimeout } from './with-timeout';

const rowHeight = 52;

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

/**
 * Where the rows stand once a scroll has stopped: each row in the page should be whole (its
 * channel's chip shown, not the row in passing of a fling), in reading order, and placed at
 * its own index (`aria-rowindex`, the header being row 1) times the row height below the
 * top of the body. Waits up to 5 s for the list to settle.
 */
async function placementOf(page: Page) {
  return withTimeout(
    page.evaluate(async () => {
      const read = () => {
        const body = document.querySelector('[data-testid="ticket-table"] tbody');
        const rows = [...(body?.querySelectorAll<HTMLElement>('[data-testid="ticket-row"]') ?? [])];
        const bodyTop = body?.getBoundingClientRect().top ?? 0;
        const indexes = rows.map((row) => Number(row.getAttribute('aria-rowindex')) - 2);
        return {
          rows: rows.length,
          inPassing: rows.filter((row) => !row.querySelector('[data-channel]')).length,
          outOfOrder: indexes.filter((index, at) => at > 0 && index <= indexes[at - 1]).length,
          misplaced: rows.filter(
            (row, at) => Math.abs(row.getBoundingClientRect().top - bodyTop - indexes[at] * 52) > 0.5,
          ).length,
          firstIndex: indexes[0] ?? -1,
        };
      };
      const started = performance.now();
      let seen = read();
      while ((seen.inPassing > 0 || seen.outOfOrder > 0) && performance.now() - started < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = read();
      }
      return seen;
    }),
    30_000,
    'reading where the rows stand',
  );
}

/** 2. The ticket view: load `targetRows` rows page by page, then scroll through them under a trace. */
export async function measureTicketList(
  browser: Browser,
  baseUrl: string,
  targetRows: number,
  traceOptions: TraceOptions,
) {
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
        // The table counts its header row among its rows.
        const count = () => Number(table()?.querySelector('table')?.getAttribute('aria-rowcount') ?? 1) - 1;
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
  // What the page's JavaScript holds with the rows loaded, as the flings below meet it (no
  // collection forced first): what a major collection inside them has to mark.
  const cdp = await context.newCDPSession(page);
  const heap = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  const heapMb = { used: Math.round(heap.usedSize / 2 ** 20), total: Math.round(heap.totalSize / 2 ** 20) };

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
  const afterScreens = await placementOf(page);
  const byRow = figuresOfSamples([
    await traced(
      browser,
      page,
      'ticket-list-row',
      () => scrollByFrames(page, '[data-testid="ticket-table"]', -rowHeight, 1_000),
      traceOptions,
    ),
  ]);
  const afterRows = await placementOf(page);
  await context.close();
  return {
    rowsLoaded: loaded,
    pageError,
    loadSeconds: Math.round(loadSeconds * 10) / 10,
    heapMb,
    byScreen,
    byRow,
    placement: { afterScreens, afterRows },
  };
}
