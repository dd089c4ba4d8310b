import { expect, test } from '@playwright/test';
import { apiGet, demoUsers, signIn } from '../support/demo';

interface Me {
  user: { name: string; email: string };
  client: { name: string };
}

test('the owner signs in and sees the menu, their name and the chat credit', async ({ page }) => {
  await signIn(page, demoUsers.owner);

  // The partner build lands on the inbox, which sends those who may read VIEW_FEATURE on to
  // the ticket table (core-inbox §2).
  await expect(page).toHaveURL(/\/customer-service\/ticket-view$/);
  await expect(page.getByRole('heading', { name: 'Daftar tiket' })).toBeVisible();

  const menu = page.getByRole('navigation', { name: 'Menu utama' });
  await expect(menu.getByText('Pengaturan')).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Akun' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Ubah kata sandi' })).toBeVisible();

  const me = await apiGet<Me>(page, '/api/identity/users/me');
  await expect(page.getByTestId('user-menu')).toContainText(me.user.name);
  await expect(page.getByTestId('user-menu')).toContainText('Pemilik');
  await expect(page.getByTestId('credit-summary')).toHaveText(/^Kredit chat [\d.]+ · Bonus [\d.]+$/);

  // Every guarded navigation fetches the chat credit again (core-inbox §2).
  const walletCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/plus/wallet/byClientId')) walletCalls.push(request.url());
  });
  await menu.getByRole('link', { name: 'Ubah kata sandi' }).click();
  await expect(page).toHaveURL(/\/setting\/self-change-password$/);
  await expect.poll(() => walletCalls.length).toBe(1);
  await menu.getByRole('link', { name: 'Akun' }).click();
  await expect(page).toHaveURL(/\/setting\/account$/);
  await expect.poll(() => walletCalls.length).toBe(2);
  await expect(page.getByTestId('account-name')).toHaveText(me.user.name);
  await expect(page.getByText(me.client.name).first()).toBeVisible();
  await expect(page.getByText('Asia/Jakarta')).toBeVisible();
  await page.screenshot({ path: 'test-results/shell.png', fullPage: true });
});

test('an agent sees only the screens an agent may open', async ({ page }) => {
  await signIn(page, demoUsers.agent1);
  const menu = page.getByRole('navigation', { name: 'Menu utama' });
  await expect(menu.getByRole('link', { name: 'Ubah kata sandi' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Akun' })).toHaveCount(0);
  await expect(page.getByTestId('user-menu')).toContainText('Customer service');
});

test('an unknown address shows the not-found page inside the shell with a way back', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  await page.goto('/this/page/does-not-exist');
  await expect(page.getByRole('heading', { name: 'Halaman tidak ditemukan' })).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.screenshot({ path: 'test-results/not-found.png', fullPage: true });

  await page.getByRole('button', { name: 'Ke halaman utama' }).click();
  await expect(page).toHaveURL(/\/customer-service\/ticket-view$/);
  await expect(page.getByRole('heading', { name: 'Daftar tiket' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/this\/page\/does-not-exist$/);

  // Opened straight from the address bar there is no history: Back goes to the first menu screen.
  await page.reload();
  await page.getByRole('button', { name: 'Kembali' }).click();
  await expect(page).toHaveURL(/\/customer-service\/ticket-view$/);
});
