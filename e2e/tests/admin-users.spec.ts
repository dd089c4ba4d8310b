import { expect, test } from '@playwright/test';
import { demoUsers, signIn, submitLogin } from '../support/demo';

test('the owner adds an agent who signs in, then deletes them and their next sign-in is refused', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const email = `journey-${stamp}@demo.test`;
  const name = `Nina ${stamp}`;
  const password = 'Rahasia123';

  await signIn(page, demoUsers.owner);
  await page.goto('/setting/admin');
  await expect(page.getByRole('heading', { name: 'Admin dan peran', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Tambah pengguna' }).click();
  const drawer = page.getByRole('dialog', { name: 'Tambah pengguna' });
  await drawer.getByRole('button', { name: 'Simpan' }).click();
  await expect(drawer.getByText('Nama wajib diisi')).toBeVisible();

  await drawer.getByRole('textbox', { name: /^Nama/ }).fill(name);
  await drawer.getByRole('textbox', { name: /^Email/ }).fill(email);
  await drawer.getByLabel(/^Kata sandi/).fill(password);
  await drawer.getByLabel(/^Konfirmasi kata sandi/).fill('Berbeda123');
  await drawer.getByRole('button', { name: 'Simpan' }).click();
  await expect(drawer.getByText('Kata sandi tidak cocok')).toBeVisible();
  await drawer.getByLabel(/^Konfirmasi kata sandi/).fill(password);

  await drawer.getByRole('textbox', { name: 'Peran', exact: true }).click();
  await page.getByRole('option', { name: 'Layanan pelanggan' }).click();
  await drawer.getByRole('textbox', { name: /^Posisi CS/ }).click();
  await page.getByRole('option', { name: 'Customer Service 2' }).click();
  await drawer.getByRole('button', { name: 'Simpan' }).click();
  await expect(drawer).toHaveCount(0);

  const row = page.getByTestId('admin-user-row').filter({ hasText: email });
  await expect(row).toContainText('Customer Service 2');
  await expect(row).toContainText('Aktif');
  await page.screenshot({ path: 'test-results/admin-users.png', fullPage: true });

  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, email, password);
  await expect(agentPage).toHaveURL(/\/customer-service\/inbox$/);
  await agentContext.close();

  await row.getByRole('button', { name: `Hapus ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Hapus pengguna?' });
  await confirm.getByRole('button', { name: 'Ya, hapus' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('admin-user-row').filter({ hasText: email })).toHaveCount(0);

  const laterContext = await browser.newContext();
  const laterPage = await laterContext.newPage();
  await laterPage.goto('/login');
  await submitLogin(laterPage, email, password);
  await expect(laterPage.getByTestId('login-error')).toContainText('Pengguna tidak aktif atau telah dihapus');
  await laterContext.close();
});
