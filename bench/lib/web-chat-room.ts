// The web bench's third part (bench:web): the chat room scrolls up from its newest message
// through as many older pages as the room gives, traced in stretches, until it reaches the start,
// the message target, the time limit, or a stall.
import type { Browser, Page } from 'playwright-core';
import { figuresOfSamples, type TracedSample, type TraceOptions, traced } from './chromium-trace';
import { busyThreads, descendantPids } from './cpu';
import { dataTimeoutMs, pageLoadTimeoutMs, signedInContext } from './web-session';
import { withTimeout } from './with-timeout';

/** How far the chat room scrolls: up to `chatTarget` messages, for at most `chatSeconds`. */
export interface ChatRoomLimits {
  chatTarget: number;
  chatSeconds: number;
  /** No older page for this long ends the scroll as a stall (30 s by default). */
  stallSeconds?: number;
}

/** 3. The chat room: from the newest message, scroll up through as many older pages as the room gives. */
export async function measureChatRoom(
  browser: Browser,
  baseUrl: string,
  ticketId: number,
  { chatTarget, chatSeconds, stallSeconds = 30 }: ChatRoomLimits,
  traceOptions: TraceOptions,
) {
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
  const stallMs = stallSeconds * 1000;
  const stalled = `no older page for ${stallSeconds}s`;
  let lastProgress = { at: Date.now(), pages: 0 };
  /** Why the scroll ended; null while it goes on. */
  const stopReason = (): string | null => {
    if (olderPages !== lastProgress.pages) lastProgress = { at: Date.now(), pages: olderPages };
    if (noMoreOlder) return 'reached the start of the room';
    if (olderMessages + firstPage >= chatTarget) return `reached ${chatTarget} messages`;
    if (Date.now() >= deadline) return `time up (${chatSeconds}s)`;
    if (Date.now() - lastProgress.at >= stallMs) return stalled;
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
  const stall = stoppedBy === stalled ? await examineStall(page) : null;
  if (stall) console.log(`  chat room: the stall examined: ${JSON.stringify(stall)}`);
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
    stall,
    listHeightPx: Math.round(inMemory),
    scroll: figures,
  };
}

/** Animation frames the page gets in one second, with its visibility and focus. */
async function framesInASecond(page: Page) {
  return withTimeout(
    page.evaluate(async () => {
      let frames = 0;
      const until = performance.now() + 1000;
      while (performance.now() < until) {
        await new Promise<void>((resolve) => {
          const fallback = setTimeout(resolve, 100);
          requestAnimationFrame(() => {
            clearTimeout(fallback);
            frames += 1;
            resolve();
          });
        });
      }
      return { frames, visibility: document.visibilityState, focused: document.hasFocus() };
    }),
    pageLoadTimeoutMs,
    'chat room: frames in a second',
  ).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
}

/**
 * Once the scroll has stalled (no older page for the stall's length): whether the page gets
 * frames at all, which of Chromium's threads work meanwhile, whether a new page of the same
 * browser gets frames, and what brings them back: bringing the tab to the front, then a
 * screenshot (a frame drawn on demand), then a new window size. Runs only after a stall, so it
 * cannot change a run that does not stall.
 */
async function examineStall(page: Page) {
  const atStall = await framesInASecond(page);
  // Which of Chromium's threads are working while the page gets no frame (the browser is this
  // process's child), and whether a new page in the same browser gets frames.
  const threads = await busyThreads(descendantPids(process.pid), 2000);
  const fresh = await withTimeout(
    (async () => {
      const other = await page.context().newPage();
      await other.setContent('<p>frames</p>');
      const frames = await framesInASecond(other);
      await other.close();
      return frames;
    })(),
    pageLoadTimeoutMs,
    'chat room: a new page',
  ).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
  await withTimeout(page.bringToFront(), pageLoadTimeoutMs, 'chat room: bring to front').catch(
    () => undefined,
  );
  const afterFront = await framesInASecond(page);
  const shot = await withTimeout(
    page.screenshot({ timeout: pageLoadTimeoutMs }),
    pageLoadTimeoutMs,
    'chat room: screenshot',
  )
    .then(() => 'taken')
    .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  const afterScreenshot = await framesInASecond(page);
  // Last, the window one pixel narrower and back: a new size makes Chromium lay out, paint and
  // draw the whole page again.
  const size = page.viewportSize();
  if (size) {
    await withTimeout(
      (async () => {
        await page.setViewportSize({ width: size.width - 1, height: size.height });
        await page.setViewportSize(size);
      })(),
      pageLoadTimeoutMs,
      'chat room: resize',
    ).catch(() => undefined);
  }
  const afterResize = await framesInASecond(page);
  return { atStall, threads, newPage: fresh, afterFront, screenshot: shot, afterScreenshot, afterResize };
}
