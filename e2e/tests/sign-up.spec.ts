import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiGet } from '../support/demo';

/** The newest sign-up code for the e-mail, from the development mailbox (DEV_MAILBOX=true). */
async function codeFor(request: APIRequestContext, email: string): Promise<string> {
  let code = '';
  await expect(async () => {
    const response = await request.get(`/api/dev/mailbox?recipient=${encodeURIComponent(email)}`);
    expect(response.ok()).toBe(true);
    const { content } = (await response.json()) as { content: Array<{ text: string }> };
    code = /\b(\d{6})\b/.exec(content[0]?.text ?? '')?.[1] ?? '';
    expect(code).not.toBe('');
  }).toPass({ timeout: 20_000 });
  return code;
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

test('a new person signs up, skips WABA, keeps the free trial and sees an empty workspace', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const email = `baru-${stamp}@signup.test`;
  const password = 'Rahasia123';
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Persetujuan privasi' }), async (dialog) => {
    await dialog.getByRole('button', { name: 'Setuju' }).click();
  });

  await page.goto('/login');
  await page.getByRole('link', { name: 'Daftar' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole('heading', { name: 'Buat akun' })).toBeVisible();

  // The form checks itself with the server's contract before sending anything.
  await page.getByRole('button', { name: 'Daftar', exact: true }).click();
  await expect(page.getByText('Nama wajib diisi')).toBeVisible();
  await page.locator('input[name="name"]').fill('Nina Baru');
  await page.locator('input[name="email"]').fill('owner@demo.test');
  await page.locator('input[name="phone"]').fill(`0813${String(Date.now()).slice(-8)}`);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirmPassword"]').fill('Rahasia124');
  await page.getByRole('button', { name: 'Daftar', exact: true }).click();
  await expect(page.getByText('Kata sandi tidak sama')).toBeVisible();
  await page.locator('input[name="confirmPassword"]').fill(password);
  await page.getByRole('button', { name: 'Daftar', exact: true }).click();
  await expect(page.getByText('Email sudah terdaftar')).toBeVisible();

  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Daftar', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verifikasi email' })).toBeVisible();
  await expect(page.getByTestId('resend-code')).toContainText(/Kirim ulang kode dalam \d+ detik/);
  await expect(page.getByTestId('resend-code')).toBeDisabled();

  const code = await codeFor(request, email);
  await page.locator('input[name="code"]').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verifikasi' }).click();
  await expect(page.getByRole('alert')).toContainText('Kode OTP salah');
  await page.locator('input[name="code"]').fill(code);
  await page.getByRole('button', { name: 'Verifikasi' }).click();

  await expect(page.getByRole('heading', { name: 'Informasi toko' })).toBeVisible();
  await page.locator('input[name="storeName"]').fill(`Warung ${stamp}`);
  await pick(page, 'business-fields', 'Makanan dan minuman');
  await page.keyboard.press('Escape');
  await pick(page, 'business-type', 'Usaha kecil (UMKM)');
  await page.getByRole('radio', { name: 'Restoran' }).check();
  await page.getByRole('button', { name: 'Lanjut' }).click();

  await expect(page.getByRole('heading', { name: 'Hubungkan WhatsApp Business' })).toBeVisible();
  await page.getByRole('button', { name: 'Lewati' }).click();

  await expect(page.getByRole('heading', { name: 'Pilih paket' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Uji coba gratis/ })).toBeChecked();
  for (const name of ['Starter', 'Pro', 'Enterprise']) {
    await expect(page.getByRole('radio', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/sign-up-subscription.png', fullPage: true });
  await page.getByRole('button', { name: 'Selesaikan pendaftaran' }).click();

  await expect(page.getByRole('heading', { name: 'Pendaftaran berhasil' })).toBeVisible();
  await page.getByRole('button', { name: 'Masuk ke dashboard' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();

  // The new workspace holds none of Toko Demo's tickets.
  await page.goto('/customer-service/ticket-view');
  await expect(page.getByText('Coba ubah filter atau rentang tanggal', { exact: false })).toBeVisible();
  await expect(page.getByTestId('ticket-row')).toHaveCount(0);
  const range = 'createdFrom=2000-01-01T00:00:00.000Z&createdTo=2100-01-01T00:00:00.000Z&pageSize=100';
  const tickets = await apiGet<{ content: unknown[] }>(page, `/api/ticket/ticket/list?${range}`);
  expect(tickets.content).toEqual([]);
});

test('/register leads to the stepper and /about shows the version', async ({ page }) => {
  await page.goto('/register');
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole('heading', { name: 'Buat akun' })).toBeVisible();

  await page.goto('/about');
  await expect(page.getByTestId('app-version')).toHaveText('Versi 1.23.1');
  await page.getByRole('link', { name: 'Daftar sekarang' }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
});
