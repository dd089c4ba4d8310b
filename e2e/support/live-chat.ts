import { type Browser, expect, type Page } from '@playwright/test';

/** A visitor on the demo storefront with the live-chat widget, in a browser context of their own. */
export async function openVisitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/demo/visitor');
  await page.locator('[data-testid=livechat-widget] .bubble').click();
  return page;
}

/** Fills the pre-chat form (the widget's shadow root is open, so locators reach inside). */
export async function startChat(page: Page, name: string, email: string): Promise<void> {
  const widget = page.locator('[data-testid=livechat-widget]');
  await widget.locator('input[name=name]').fill(name);
  await widget.locator('input[name=email]').fill(email);
  await widget.locator('input[name=consent]').check();
  await widget.locator('button.primary').click();
  await expect(widget.locator('[data-testid=livechat-input]')).toBeVisible();
}

/**
 * Writes a message in the widget and waits until it shows in the conversation; with
 * `stored`, until the server has acknowledged it (the row's tick).
 */
export async function visitorSays(
  page: Page,
  text: string,
  options: { stored?: boolean } = {},
): Promise<void> {
  const widget = page.locator('[data-testid=livechat-widget]');
  await widget.locator('[data-testid=livechat-input]').fill(text);
  await widget.locator('[data-testid=livechat-input]').press('Enter');
  const row = widget.locator('[data-testid=livechat-message-visitor]').filter({ hasText: text });
  await expect(row).toBeVisible();
  if (options.stored) await expect(row).toContainText('✓');
}

/** The agent's replies as the visitor sees them. */
export function agentMessages(page: Page) {
  return page.locator('[data-testid=livechat-widget] [data-testid=livechat-message-agent]');
}

/** A word no other test or seeded chat contains, for search. */
export function uniqueWord(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
