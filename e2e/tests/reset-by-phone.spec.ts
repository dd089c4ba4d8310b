import { expect, type Page, test } from '@playwright/test';
import { demoUsers, signIn, storedAccessToken, submitLogin } from '../support/demo';

interface MailboxBody {
  content: Array<{ channel: string; recipient: string; text: string; status: string }>;
}

/** The newest SMS to the number, read from the owner's local mailbox. */
async function smsCode(ownerPage: Page, phone: string): Promise<string> {
  const token = await storedAccessToken(ownerPage);
  let code = '';
  await expect(async () => {
    const response = await ownerPage.request.get('/api/identity/mailbox', {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as MailboxBody;
    const sms = body.content.find((entry) => entry.channel === 'SMS' && entry.recipient === phone);
    code = /\b(\d{5})\b/.exec(sms?.text ?? '')?.[1] ?? '';
    expect(code).not.toBe('');
  }).toPass({ timeout: 20_000 });
  return code;
}

test('later steps without the earlier ones go back to the phone step; an unknown number is refused', async ({
  page,
}) => {
  await page.goto('/reset');
  await expect(page).toHaveURL(/\/reset\/phone$/);
  await page.goto('/reset/change-password');
  await expect(page).toHaveURL(/\/reset\/phone$/);

  const sendCode = page.getByRole('button', { name: 'Kirim kode' });
  await sendCode.click();
  await expect(page.getByText('Nomor telepon wajib diisi')).toBeVisible();
  await page.locator('input[name="phone"]').fill('081200000001');
  await sendCode.click();
  await expect(page.getByRole('alert')).toContainText('Nomor telepon tidak terdaftar');
});

test('a new agent resets the password by phone with the SMS code from the local mailbox', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString().slice(-8);
  const phone = `0813${stamp}`;
  const email = `reset-phone-${stamp}@demo.test`;
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await signIn(ownerPage, demoUsers.owner);
  const token = await storedAccessToken(ownerPage);
  const created = await ownerPage.request.post('/api/identity/admin-users', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: `Reset ${stamp}`,
      email,
      password: 'Awal1234!',
      confirmPassword: 'Awal1234!',
      role: 'USC',
      csPosition: 'CS_2',
      phone,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const view = (await created.json()) as { phone: string | null };
  expect(view.phone).toBe(`62${phone.slice(1)}`);

  await page.goto('/reset/phone');
  await page.locator('input[name="phone"]').fill(phone);
  await page.getByRole('button', { name: 'Kirim kode' }).click();
  await expect(page).toHaveURL(/\/reset\/otp-verification$/);
  await expect(page.getByTestId('resend-code')).toContainText(/Kirim ulang kode dalam \d+ detik/);
  const code = await smsCode(ownerPage, `62${phone.slice(1)}`);
  await owner.close();

  await page.getByTestId('otp-input').locator('input').first().click();
  await page.keyboard.type(code === '00000' ? '11111' : '00000');
  await page.getByRole('button', { name: 'Verifikasi', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Kode OTP salah');
  await page.getByTestId('otp-input').locator('input').first().click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Verifikasi', exact: true }).click();
  await expect(page).toHaveURL(/\/reset\/change-password$/);

  const newPassword = `Telp${stamp}`;
  const save = page.getByRole('button', { name: 'Simpan kata sandi' });
  await page.locator('input[name="newPassword"]').fill(newPassword);
  await page.locator('input[name="confirmPassword"]').fill(newPassword);
  await save.click();
  await expect(page.getByText('Kata sandi harus berisi karakter khusus')).toBeVisible();
  await page.locator('input[name="newPassword"]').fill(`${newPassword}#`);
  await page.locator('input[name="confirmPassword"]').fill(`${newPassword}#`);
  await save.click();

  await expect(page).toHaveURL(/\/reset\/successfully$/);
  await page.getByRole('link', { name: 'Masuk' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, email, `${newPassword}#`);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
