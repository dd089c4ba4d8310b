import { expect, type Page, test } from '@playwright/test';
import { totpAt } from '../../apps/server/src/modules/identity/totp';
import { demoPassword, demoUsers, signIn, submitLogin } from '../support/demo';

// admin@demo.test signs in in no other journey, so its 2-step state affects no one else.
const user = demoUsers.admin;
let secret: string | null = null;

/** Types six digits into the code field, one box after another. */
async function typeCode(page: Page, code: string) {
  await page.getByTestId('mfa-code').locator('input').first().click();
  await page.keyboard.type(code);
}

/** A code from another time window: valid digits that the server must refuse. */
const staleCode = (base32: string) => totpAt(base32, Date.now() - 10 * 60_000);
/** The next step's code: a code already used in this 30 s step is refused as a replay. */
const nextCode = (base32: string) => totpAt(base32, Date.now() + 30_000);

test.afterAll(async ({ request }) => {
  // Leave the user as found even when a step failed: turn 2-step off through the API.
  if (!secret) return;
  const login = await request.post('/api/identity/auth/login', {
    data: { email: user, password: demoPassword },
  });
  const body = (await login.json()) as { mfaToken?: string; accessToken?: string };
  if (!body.mfaToken) return;
  const verified = await request.post('/api/identity/users/mfa/verify', {
    headers: { authorization: `Bearer ${body.mfaToken}` },
    data: { token: totpAt(secret) },
  });
  const { accessToken } = (await verified.json()) as { accessToken: string };
  await request.post('/api/identity/users/mfa/deactivate', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { token: nextCode(secret) },
  });
});

test('2-step: turn it on, sign in with the code, turn it off', async ({ page }) => {
  // The consent dialog may cover the page after any sign-in; agreeing once ends it.
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Persetujuan privasi' }), async (dialog) => {
    await dialog.getByRole('button', { name: 'Setuju' }).click();
  });
  await signIn(page, user);
  await page.goto('/setting/two-factor-verification-setup');
  await expect(page.getByRole('heading', { name: 'Verifikasi 2 langkah', level: 1 })).toBeVisible();
  await expect(page.getByTestId('mfa-status')).toHaveText('Nonaktif');

  await page.getByRole('button', { name: 'Aktifkan verifikasi 2 langkah' }).click();
  const shownSecret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(shownSecret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(
    page.getByRole('img', { name: 'Kode QR untuk dipindai dengan aplikasi autentikator' }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/two-step-setup.png', fullPage: true });

  await typeCode(page, staleCode(shownSecret));
  await page.getByRole('button', { name: 'Aktifkan', exact: true }).click();
  await expect(page.getByTestId('mfa-error')).toContainText(
    'Kode yang Anda masukkan tidak valid. Silakan coba lagi.',
  );

  await typeCode(page, totpAt(shownSecret));
  await page.getByRole('button', { name: 'Aktifkan', exact: true }).click();
  secret = shownSecret;
  await expect(page.getByTestId('mfa-recovery-codes')).toBeVisible();
  await page.getByRole('button', { name: 'Selesai' }).click();
  await expect(page.getByTestId('mfa-status')).toHaveText('Aktif');

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Keluar' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await submitLogin(page, user);
  await expect(page.getByText('Masukkan kode 6 digit dari aplikasi autentikator Anda.')).toBeVisible();
  await typeCode(page, staleCode(shownSecret));
  await page.getByRole('button', { name: 'Verifikasi' }).click();
  await expect(page.getByTestId('login-error')).toContainText(
    'Kode yang Anda masukkan tidak valid. Silakan coba lagi.',
  );
  await typeCode(page, totpAt(shownSecret));
  await page.getByRole('button', { name: 'Verifikasi' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();

  await page.goto('/setting/two-factor-verification-setup');
  await page.locator('input[name="deactivate-code"]').fill(nextCode(shownSecret));
  await page.getByRole('button', { name: 'Nonaktifkan verifikasi 2 langkah' }).click();
  await expect(page.getByTestId('mfa-status')).toHaveText('Nonaktif');
  secret = null;
});
