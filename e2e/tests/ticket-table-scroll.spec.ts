import { expect, test } from '@playwright/test';
import { demoUsers, showEveryCreatedDate, signIn } from '../support/demo';

test('the ticket table shows rows in passing while it jumps a screen a frame, and whole once it stops', async ({
  page,
}) => {
  // A short window, so that the demo's forty tickets make several screens of the table.
  await page.setViewportSize({ width: 1366, height: 560 });
  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  await page.getByTestId('tab-all').click();
  await showEveryCreatedDate(page);
  const rows = page.getByTestId('ticket-row');
  await expect(rows.first().locator('[data-channel]')).toBeVisible();
  const table = page.getByTestId('ticket-table');
  const sizes = await table.evaluate((element) => ({
    screen: element.clientHeight,
    total: element.scrollHeight,
  }));
  expect(sizes.total).toBeGreaterThan(sizes.screen * 4);

  // One screen a frame down: the rows on screen are new at every step and show their id and
  // customer only. What each step's rows showed is read two frames after it.
  const steps = await table.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const seen: Array<{ rows: number; whole: number; ids: number }> = [];
    for (let step = 0; step < 3; step += 1) {
      element.scrollTop += element.clientHeight;
      await frame();
      await frame();
      const shown = [...element.querySelectorAll('[data-testid="ticket-row"]')];
      seen.push({
        rows: shown.length,
        whole: shown.filter((row) => row.querySelector('[data-channel]')).length,
        ids: shown.filter((row) => row.textContent?.includes(`#${row.getAttribute('data-ticket-id')}`))
          .length,
      });
    }
    return seen;
  });
  // Every row names its ticket at every step; at least one step showed its rows in passing.
  for (const step of steps) expect(step.ids).toBe(step.rows);
  expect(steps.some((step) => step.whole === 0)).toBe(true);

  // Stopped, every row is whole again: the channel's chip, the status, the subject.
  await expect
    .poll(() =>
      rows.evaluateAll((shown) => shown.filter((row) => !row.querySelector('[data-channel]')).length),
    )
    .toBe(0);
  // In reading order, each at its own place: its index (the header is row 1) times the row height.
  const placed = await table.evaluate((element) => {
    const body = element.querySelector('tbody');
    const top = body?.getBoundingClientRect().top ?? 0;
    return [...element.querySelectorAll<HTMLElement>('[data-testid="ticket-row"]')].map((row) => ({
      index: Number(row.getAttribute('aria-rowindex')) - 2,
      offset: Math.round(row.getBoundingClientRect().top - top),
    }));
  });
  expect(placed.length).toBeGreaterThan(3);
  placed.forEach((row, at) => {
    expect(row.offset).toBe(row.index * 52);
    if (at > 0) expect(row.index).toBe(placed[at - 1].index + 1);
  });
  const firstShown = await table.evaluate((element) => {
    const top = element.getBoundingClientRect().top + element.clientHeight / 2;
    const row = [...element.querySelectorAll<HTMLElement>('[data-testid="ticket-row"]')].find(
      (candidate) => candidate.getBoundingClientRect().bottom > top,
    );
    return row?.getAttribute('data-ticket-id') ?? null;
  });
  expect(firstShown).not.toBeNull();
  const middleRow = page.locator(`[data-testid="ticket-row"][data-ticket-id="${firstShown}"]`);
  await expect(middleRow.locator('a', { hasText: `#${firstShown}` })).toBeVisible();
  await page.screenshot({ path: 'test-results/ticket-table-scroll.png' });

  // A row a frame, the rows stay whole: most of the screen was on it the frame before.
  const slow = await table.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let passing = 0;
    for (let step = 0; step < 20 && element.scrollTop > 0; step += 1) {
      element.scrollTop -= 52;
      await frame();
      await frame();
      const shown = [...element.querySelectorAll('[data-testid="ticket-row"]')];
      if (shown.some((row) => !row.querySelector('[data-channel]'))) passing += 1;
    }
    return passing;
  });
  expect(slow).toBe(0);
});

test('the ticket page reaches the browser gzipped, and the table shows what it holds', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  const pages: Array<import('@playwright/test').Response> = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/ticket/ticket/list') && response.status() === 200) pages.push(response);
  });
  await page.goto('/customer-service/ticket-view');
  await page.getByTestId('tab-all').click();
  await expect(page.getByTestId('ticket-row').first().locator('[data-channel]')).toBeVisible();
  await expect.poll(() => pages.length).toBeGreaterThan(0);
  const response = pages[pages.length - 1];
  // The browser asked for it (as every browser does) and the server sent it compressed.
  expect(await response.request().headerValue('accept-encoding')).toContain('gzip');
  expect(await response.headerValue('content-encoding')).toBe('gzip');
  const shown = (await response.json()) as { content: Array<{ id: number }> };
  expect(shown.content.length).toBeGreaterThan(0);
  await expect(page.locator(`[data-ticket-id="${shown.content[0].id}"]`).first()).toBeVisible();
});
