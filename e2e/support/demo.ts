import { expect, type Page } from '@playwright/test';
import { storageKeys } from '../../apps/web/src/shared/storage-keys';

export { storageKeys };

/** Password of every seeded demo user. */
export const demoPassword = 'Demo1234!';

export const demoUsers = {
  owner: 'owner@demo.test',
  admin: 'admin@demo.test',
  agent1: 'agent1@demo.test',
  agent2: 'agent2@demo.test',
} as const;

/** Fills and sends the sign-in form on the page already showing it. */
export async function submitLogin(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[type="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/**
 * Signs in from /login and waits until the signed-in shell is on screen. People of several
 * clients (the owner) are offered the client dialog once; the journeys stay in the home client.
 */
export async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/login');
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/identity/auth/login'));
  await submitLogin(page, email, password);
  const body = (await (await answer).json().catch(() => ({}))) as { enableMultiClient?: boolean };
  await expect(page.getByTestId('user-menu')).toBeVisible();
  if (body.enableMultiClient) await keepCurrentClient(page);
}

/** Answers the client dialog with the client already open, which closes it. */
export async function keepCurrentClient(page: Page): Promise<void> {
  const current = page.locator('[data-testid="client-option"][aria-current="true"]');
  await current.click();
  await expect(current).toBeHidden();
}

/** The current access token, read the way the app stores it. */
export async function storedAccessToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), storageKeys.accessToken);
}

/** Calls the API with the page's own token (e.g. to read what the screen should show). */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = await storedAccessToken(page);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

/**
 * Clears the ticket table's created-date filter, which opens on today. The demo's chats of
 * today are placed when the server starts, so a journey that runs after midnight in Jakarta,
 * on a server started before it, would find none of them on the new day.
 */
export async function showEveryCreatedDate(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Hapus filter Tanggal dibuat', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Tanggal dibuat', exact: true })).toHaveText(
    'Semua tanggal dibuat',
  );
}
