import { expect, test } from '@playwright/test';
import { demoPassword, demoUsers, signIn, submitLogin } from '../support/demo';

test('changing the password validates, reports server errors, then signs out with a message', async ({
  page,
}) => {
  await signIn(page, demoUsers.agent2);
  await page.goto('/setting/self-change-password');
  await expect(page.getByRole('heading', { name: 'Ubah kata sandi', level: 1 })).toBeVisible();
  await page.screenshot({ path: 'test-results/change-password.png', fullPage: true });

  const current = page.locator('input[name="currentPassword"]');
  const next = page.locator('input[name="newPassword"]');
  const confirm = page.locator('input[name="confirmPassword"]');
  const save = page.getByRole('button', { name: 'Simpan kata sandi' });

  await save.click();
  await expect(page.getByText('Kata sandi saat ini wajib diisi')).toBeVisible();

  await current.fill(demoPassword);
  await next.fill('short1');
  await confirm.fill('short1');
  await save.click();
  await expect(
    page.getByText('Kata sandi minimal 8 karakter dan harus berisi huruf dan angka'),
  ).toBeVisible();

  await next.fill('Baru12345');
  await confirm.fill('Baru12346');
  await save.click();
  await expect(page.getByText('Kata sandi baru dan konfirmasi kata sandi tidak sama')).toBeVisible();

  await current.fill('Salah12345');
  await confirm.fill('Baru12345');
  await save.click();
  await expect(page.getByText('Kata sandi saat ini salah')).toBeVisible();

  await current.fill(demoPassword);
  await save.click();
  await expect(page).toHaveURL(/\/login$/);
  const dialog = page.getByRole('dialog', { name: 'Informasi' });
  await expect(dialog).toContainText('Kata sandi berhasil diubah');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(dialog).toHaveCount(0);

  await submitLogin(page, demoUsers.agent2, demoPassword);
  await expect(page.getByTestId('login-error')).toContainText('Email atau kata sandi tidak valid');
  await submitLogin(page, demoUsers.agent2, 'Baru12345');
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
