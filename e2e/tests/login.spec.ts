import { expect, test } from '@playwright/test';
import { demoUsers, signIn, submitLogin } from '../support/demo';

test('a wrong password shows the catalogue message in Indonesian', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('input[name="email"]')).toHaveAttribute('autocomplete', 'username');
  await expect(page.locator('input[type="password"]')).toHaveAttribute('autocomplete', 'current-password');
  await page.screenshot({ path: 'test-results/login.png' });

  await submitLogin(page, demoUsers.owner, 'not-the-password-1');
  await expect(page.getByTestId('login-error')).toContainText('Email atau kata sandi tidak valid');
  await expect(page).toHaveURL(/\/login$/);
});

test('a signed-out visitor is sent to sign in and comes back to the same address with its query', async ({
  page,
}) => {
  await page.goto('/setting/account?tab=profile');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/setting/account?tab=profile');

  await submitLogin(page, demoUsers.owner);
  await expect(page).toHaveURL(/\/setting\/account\?tab=profile$/);
  await expect(page.getByTestId('account-name')).toBeVisible();
});

test('signing out returns to the sign-in page and protected pages stay closed', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Keluar' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/setting/account');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});
