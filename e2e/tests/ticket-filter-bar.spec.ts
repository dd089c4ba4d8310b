import { expect, test } from '@playwright/test';
import { demoUsers, showEveryCreatedDate, signIn } from '../support/demo';

test('the channel filter of the ticket table reads whole and narrows the rows', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  await page.getByTestId('tab-all').click();
  await showEveryCreatedDate(page);
  const rows = page.getByTestId('ticket-row');
  const shown = () =>
    rows
      .locator('[data-channel]')
      .evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-channel')));
  await expect.poll(async () => new Set(await shown()).size).toBeGreaterThan(2);

  // The field opens as a checklist; what is chosen is ticked in the list, not cut into chips.
  const field = page.getByRole('button', { name: 'Kanal', exact: true });
  await field.click();
  await page.getByRole('option', { name: 'WhatsApp', exact: true }).click();
  await page.getByRole('option', { name: 'Telegram', exact: true }).click();
  await expect(page.getByRole('option', { name: 'WhatsApp', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('option', { name: 'Telegram', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByPlaceholder('WhatsApp +1')).toBeVisible();

  // Escape closes the list and gives focus back to the field, which sums up the choice whole.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(field).toBeFocused();
  await expect(field).toHaveText('WhatsApp +1');
  await expect(field).toHaveAttribute('title', 'WhatsApp, Telegram');
  const box = await field.boundingBox();
  const text = await field.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  expect(text.scroll).toBeLessThanOrEqual(text.client);
  expect(box?.height).toBeLessThan(40);

  await expect.poll(async () => [...new Set(await shown())].sort()).toEqual(['TLG', 'WAP']);
  await page.screenshot({ path: 'test-results/ticket-filter-bar.png' });

  // Its clear button gives back every channel.
  await page.getByRole('button', { name: 'Hapus filter Kanal' }).click();
  await expect(field).toHaveText('Semua kanal');
  await expect.poll(async () => new Set(await shown()).size).toBeGreaterThan(2);
});

test('a date field of the ticket table is cleared by a button named in the user language', async ({
  page,
}) => {
  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  const created = page.getByRole('button', { name: 'Tanggal dibuat', exact: true });
  // The table opens on today's tickets; the stand-in's clear button names its field.
  await expect(created).not.toHaveText('Semua tanggal dibuat');
  await page.getByRole('button', { name: 'Hapus filter Tanggal dibuat', exact: true }).click();
  await expect(created).toHaveText('Semua tanggal dibuat');

  await created.click();
  await page.getByRole('button', { name: '7 hari terakhir', exact: true }).click();
  await expect(created).not.toHaveText('Semua tanggal dibuat');

  // The picker's clear button is an icon; the theme names it ("Kosongkan") in the user's language.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Kosongkan', exact: true }).click();
  await expect(created).toHaveText('Semua tanggal dibuat');
});

test('a created-date filter left on today follows the new day when midnight passes in Jakarta', async ({
  page,
}) => {
  // The browser's clock half a minute before the last midnight in Jakarta (UTC+7, no clock change).
  const hour = 3_600_000;
  const day = 24 * hour;
  const midnight = Math.floor((Date.now() + 7 * hour) / day) * day - 7 * hour;
  await page.clock.install({ time: midnight - 30_000 });
  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  const created = page.getByRole('button', { name: 'Tanggal dibuat', exact: true });
  // The field reads "30 Nov 2026 – 30 Nov 2026": each day's date in Jakarta, then its year.
  const dayOf = (instant: number) => {
    const date = new Date(instant + 7 * hour);
    return new RegExp(`^${date.getUTCDate()} \\S+ ${date.getUTCFullYear()} – ${date.getUTCDate()} `);
  };
  await expect(created).toHaveText(dayOf(midnight - 30_000));

  // Past midnight the untouched default is today again, and the list asks for the new day.
  const asked = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return (
      url.pathname.startsWith('/api/ticket') &&
      url.searchParams.get('createdFrom') === new Date(midnight).toISOString()
    );
  });
  await page.clock.runFor(31_000);
  await expect(created).toHaveText(dayOf(midnight));
  await asked;
  await page.screenshot({ path: 'test-results/ticket-filter-after-midnight.png' });
});
