// The benches that drive a browser launch it as the journeys do (e2e/support/chromium.ts).
import { type Browser, chromium } from 'playwright-core';
import { chromiumLaunch } from '../../e2e/support/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunch);
}
