import { expect, type Page, test } from '@playwright/test';
import { apiGet, demoPassword, demoUsers, signIn, storedAccessToken } from '../support/demo';

type Me = { consentAgreedAt: string | null; consentTimestamp: string | null };

const sixHoursMs = 6 * 60 * 60 * 1000;

/** Answers the consent as the page's user through the API, as if at another time. */
async function putConsent(page: Page, consentTimestamp: string, agreed: boolean): Promise<void> {
  const token = await storedAccessToken(page);
  const response = await page.request.put('/api/identity/users/consent', {
    headers: { authorization: `Bearer ${token}` },
    data: { consentTimestamp, agreed },
  });
  expect(response.ok()).toBe(true);
}

/**
 * Reloads and waits until the app has rendered the user read from users/me (the header
 * shows their name from it), so the dialog's rule has run on the same answer.
 */
async function reloadSignedIn(page: Page, name: string): Promise<void> {
  await page.reload();
  await expect(page.getByTestId('user-menu')).toContainText(name);
}

test('a new user is asked for consent: dismiss asks again after 6 hours, approve is kept', async ({
  page,
  request,
}) => {
  // A user the owner just created has never answered, so the dialog is due at once.
  const stamp = Date.now().toString(36);
  const email = `consent-${stamp}@demo.test`;
  const password = 'Rahasia123';
  const name = `Citra ${stamp}`;
  const login = await request.post('/api/identity/auth/login', {
    data: { email: demoUsers.owner, password: demoPassword },
  });
  const { accessToken: ownerToken } = (await login.json()) as { accessToken: string };
  const created = await request.post('/api/identity/admin-users', {
    headers: { authorization: `Bearer ${ownerToken}` },
    data: {
      name,
      email,
      password,
      confirmPassword: password,
      role: 'USC',
      csPosition: 'CS_2',
    },
  });
  expect(created.ok()).toBe(true);

  await signIn(page, email, password);
  const dialog = page.getByRole('dialog', { name: 'Persetujuan privasi' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('consent-document')).toContainText('Persetujuan Privasi');
  await page.screenshot({ path: 'test-results/consent-dialog.png' });

  // Dismiss: closed, no agreement, only the time of the answer.
  await dialog.getByRole('button', { name: 'Nanti saja' }).click();
  await expect(dialog).toHaveCount(0);
  const dismissed = await apiGet<Me>(page, '/api/identity/users/me');
  expect(dismissed.consentAgreedAt).toBeNull();
  expect(dismissed.consentTimestamp).not.toBeNull();

  // Within 6 hours of that answer a reload does not ask again.
  await reloadSignedIn(page, name);
  await expect(dialog).toHaveCount(0);

  // More than 6 hours after the answer (the answer moved back in time), it asks again.
  await putConsent(page, new Date(Date.now() - sixHoursMs - 60_000).toISOString(), false);
  await reloadSignedIn(page, name);
  await expect(dialog).toBeVisible();

  // Approve: closed, the agreement and a fresh timestamp are on the server.
  const answered = page.waitForResponse(
    (response) => response.url().endsWith('/api/identity/users/consent') && response.ok(),
  );
  await dialog.getByRole('button', { name: 'Setuju' }).click();
  await answered;
  await expect(dialog).toHaveCount(0);
  const approved = await apiGet<Me>(page, '/api/identity/users/me');
  expect(approved.consentAgreedAt).not.toBeNull();
  expect(Date.parse(approved.consentTimestamp ?? '')).toBeGreaterThan(Date.now() - 60_000);

  // An agreement is final: neither a reload nor 6 hours passing brings the dialog back.
  await reloadSignedIn(page, name);
  await expect(dialog).toHaveCount(0);
  await putConsent(page, new Date(Date.now() - 2 * sixHoursMs).toISOString(), false);
  await reloadSignedIn(page, name);
  await expect(dialog).toHaveCount(0);
  expect((await apiGet<Me>(page, '/api/identity/users/me')).consentAgreedAt).toBe(approved.consentAgreedAt);
});

test('the demo staff, seeded as having agreed, are not asked', async ({ page }) => {
  await signIn(page, demoUsers.agent1);
  await reloadSignedIn(page, 'Agus Agen');
  await expect(page.getByRole('dialog', { name: 'Persetujuan privasi' })).toHaveCount(0);
});
