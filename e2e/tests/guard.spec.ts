import { expect, test } from '@playwright/test';
import { demoUsers, signIn } from '../support/demo';

test('an agent opening /setting/admin lands on the default path with the forbidden snackbar', async ({
  page,
}) => {
  await signIn(page, demoUsers.agent1);
  await page.goto('/setting/admin');

  const snackbar = page.locator('[data-snackbar="top"]');
  await expect(snackbar).toContainText('Anda tidak memiliki izin untuk mengakses menu ini.');
  const seenAt = Date.now();
  await expect(page).toHaveURL(/\/customer-service\/inbox$/);
  await expect(snackbar.getByRole('button', { name: 'Tutup' })).toBeVisible();
  // It goes away by itself after 5000 ms: it stays a good while after we first saw it (seen
  // late on a busy machine, so not the whole 5 s), and is gone well before 10 s.
  await expect(snackbar).toHaveCount(0, { timeout: 10_000 });
  expect(Date.now() - seenAt).toBeGreaterThan(2000);
});

test('the forbidden snackbar closes with its x', async ({ page }) => {
  await signIn(page, demoUsers.agent1);
  await page.goto('/dashboard');
  const snackbar = page.locator('[data-snackbar="top"]');
  await expect(snackbar).toBeVisible();
  await snackbar.getByRole('button', { name: 'Tutup' }).click();
  await expect(snackbar).toHaveCount(0);
});
