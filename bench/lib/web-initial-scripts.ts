// The web bench's first part (bench:web): every script the signed-in inbox loads until idle,
// with its transferred and decoded size as served and its size compressed here (gzip -9, brotli 11)
// from the built file.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { dataTimeoutMs, pageLoadTimeoutMs, signedInContext } from './web-session';
import { withTimeout } from './with-timeout';

export interface ScriptChunk {
  file: string;
  transferred: number;
  decoded: number;
  gzip: number;
  brotli: number;
}

/** 1. Every script the signed-in inbox loads until idle: transferred, decoded and gzip bytes. */
export async function measureInitialScripts(browser: Browser, baseUrl: string, webDist: string) {
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
