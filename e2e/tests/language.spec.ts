import { expect, test } from '@playwright/test';
import { demoUsers, signIn } from '../support/demo';

test('switching to English changes the texts and survives a reload', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  const menu = page.getByRole('navigation', { name: 'Menu utama' });
  await expect(menu.getByRole('link', { name: 'Ubah kata sandi' })).toBeVisible();

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'English' }).click();

  const englishMenu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(englishMenu.getByRole('link', { name: 'Change password' })).toBeVisible();
  await expect(englishMenu.getByText('Settings')).toBeVisible();
  await expect(page.getByTestId('credit-summary')).toContainText('Chat credit');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.reload();
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Account' }),
  ).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText('Owner');
});

test('the sign-in page switches language and shows errors in the chosen language', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Selamat datang kembali' })).toBeVisible();
  await page.getByText('EN', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByText('Email is required')).toBeVisible();
});
