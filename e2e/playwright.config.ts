import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from './support/chromium';

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
/** Where the journeys' Telegram simulator listens; the server calls it instead of api.telegram.org. */
const telegramPort = Number(process.env.E2E_TELEGRAM_PORT ?? 3198);

// Workers re-read this file; the environment carries the first value so all agree on one directory.
const dataDir = process.env.E2E_DATA_DIR ?? path.join(tmpdir(), `omni-inbox-e2e-${Date.now()}`);
process.env.E2E_DATA_DIR = dataDir;

/**
 * Journeys against the real product: the server built and started by scripts/start.mjs,
 * on a fresh database seeded with the demo workspace, driven by Debian's Chromium.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/artifacts',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1366, height: 768 },
    locale: 'id-ID',
    timezoneId: 'Asia/Jakarta',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunch,
  },
  webServer: {
    command: 'node ../scripts/start.mjs',
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      DEV_MAILBOX: 'true',
      TELEGRAM_API_BASE: `http://127.0.0.1:${telegramPort}`,
    },
  },
});
