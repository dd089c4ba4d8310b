import { expect, type Page, test } from '@playwright/test';
import { demoUsers, signIn, submitLogin } from '../support/demo';

/**
 * The supervisor, not agent2: change-password.spec changes agent2's password while the
 * journeys run in parallel, and a reset cannot set Demo1234! back (it is in the password
 * history). No other journey signs in as the supervisor.
 */
const forgetful = 'supervisor@demo.test';

/** The newest code mailed to the user, read as the owner would: on the local mailbox page. */
async function codeFromMailbox(ownerPage: Page, recipient: string, notCode?: string): Promise<string> {
  let code = '';
  await expect(async () => {
    await ownerPage.goto('/setting/mailbox');
    const entry = ownerPage.getByTestId('mailbox-entry').filter({ hasText: recipient }).first();
    const text = (await entry.textContent({ timeout: 2000 })) ?? '';
    code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    expect(code).not.toBe('');
    expect(code).not.toBe(notCode);
  }).toPass({ timeout: 20_000 });
  return code;
}

test('a forgotten password is reset with the code from the local mailbox', async ({ page, browser }) => {
  const newPassword = `Lupa${Date.now().toString().slice(-8)}`;
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await signIn(ownerPage, demoUsers.owner);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Lupa kata sandi?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Atur ulang kata sandi' })).toBeVisible();

  const sendCode = page.getByRole('button', { name: 'Kirim kode' });
  await sendCode.click();
  await expect(page.getByText('Email wajib diisi')).toBeVisible();
  await page.locator('input[name="email"]').fill('tidak-ada@demo.test');
  await sendCode.click();
  await expect(page.getByRole('alert')).toContainText('Email tidak terdaftar');

  await page.locator('input[name="email"]').fill(forgetful);
  await sendCode.click();
  await expect(page.getByTestId('resend-code')).toContainText(/Kirim ulang kode dalam \d+ detik/);
  await expect(page.getByTestId('resend-code')).toBeDisabled();
  await page.screenshot({ path: 'test-results/forgot-password-code.png', fullPage: true });

  const code = await codeFromMailbox(ownerPage, forgetful);
  await ownerPage.screenshot({ path: 'test-results/local-mailbox.png', fullPage: true });
  await owner.close();

  const verify = page.getByRole('button', { name: 'Verifikasi' });
  await page.locator('input[name="code"]').fill(code === '000000' ? '111111' : '000000');
  await verify.click();
  await expect(page.getByRole('alert')).toContainText('Kode OTP salah');
  await page.locator('input[name="code"]').fill(code);
  await verify.click();

  const save = page.getByRole('button', { name: 'Simpan kata sandi' });
  await page.locator('input[name="newPassword"]').fill(newPassword);
  await page.locator('input[name="confirmPassword"]').fill(`${newPassword}x`);
  await save.click();
  await expect(page.getByText('Kata sandi baru dan konfirmasi kata sandi tidak sama')).toBeVisible();
  await page.locator('input[name="confirmPassword"]').fill(newPassword);
  await save.click();

  await expect(page.getByRole('heading', { name: 'Kata sandi berhasil diubah' })).toBeVisible();
  await page.getByRole('link', { name: 'Masuk' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, forgetful, newPassword);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
