/**
 * Debian's Chromium, headless, with the flags this machine needs (no sandbox, no GPU, nothing
 * fetched in the background): the journeys' browser, and the benches' (bench/lib/chromium.ts).
 */
export const chromiumLaunch = {
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
};
