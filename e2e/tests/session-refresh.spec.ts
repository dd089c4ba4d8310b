import { expect, test } from '@playwright/test';
import { demoUsers, signIn, storageKeys, storedAccessToken } from '../support/demo';

/** The same claims with `exp` in the past; the signature no longer matches, which the server also refuses. */
function expiredCopyOf(token: string): string {
  const [header, payload] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  claims.exp = Math.floor(Date.now() / 1000) - 3600;
  claims.iat = claims.exp - 900;
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.expired-signature`;
}

test('an expired access token is refreshed once without the user noticing', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  await page.goto('/setting/account');
  await expect(page.getByTestId('account-name')).toBeVisible();

  const original = await storedAccessToken(page);
  expect(original).toBeTruthy();
  const expired = expiredCopyOf(original!);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKeys.accessToken, expired]);

  const refreshCalls: string[] = [];
  const unauthorized: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/identity/auth/refresh-access')) {
      refreshCalls.push(request.url());
    }
  });
  page.on('response', (response) => {
    if (response.status() === 401) unauthorized.push(response.url());
  });

  await page.reload();
  await expect(page.getByTestId('account-name')).toBeVisible();
  await expect(page).toHaveURL(/\/setting\/account$/);
  // Let every request of the screen (wallet, me, socket) settle before counting.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);

  expect(unauthorized.length).toBeGreaterThan(0);
  expect(refreshCalls).toHaveLength(1);
  const renewed = await storedAccessToken(page);
  expect(renewed).not.toBe(expired);
  expect(renewed).not.toBe(original);

  // Moving on keeps working with the renewed token and does not refresh again.
  await page
    .getByRole('navigation', { name: 'Menu utama' })
    .getByRole('link', { name: 'Ubah kata sandi' })
    .click();
  await expect(page).toHaveURL(/\/setting\/self-change-password$/);
  await page.waitForLoadState('networkidle');
  expect(refreshCalls).toHaveLength(1);
});
