import { expect, test } from '@playwright/test';
import { apiGet, demoUsers, showEveryCreatedDate, submitLogin } from '../support/demo';

const bandung = 'Toko Demo Cabang Bandung';
/** A live chat of the branch and a chat of Toko Demo from today (see the demo seeds). */
const branchCustomer = 'Rina Bandung';
const homeCustomer = 'Dewi Lestari';

test('the owner picks the Bandung branch after sign-in and switches back from the user menu', async ({
  page,
}) => {
  await page.goto('/login');
  await submitLogin(page, demoUsers.owner);

  const options = page.getByTestId('client-option');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText('Toko Demo');
  await expect(options.nth(0)).toContainText('Saat ini');
  await expect(options.nth(1)).toContainText(bandung);
  await expect(options.nth(1)).toContainText('Pemilik');
  await page.screenshot({ path: 'test-results/client-switch-dialog.png' });

  await options.filter({ hasText: bandung }).click();
  await expect(options).toHaveCount(0);
  await expect
    .poll(
      async () => (await apiGet<{ client: { name: string } }>(page, '/api/identity/users/me')).client.name,
    )
    .toBe(bandung);

  await page.goto('/customer-service/ticket-view');
  await showEveryCreatedDate(page);
  const rows = page.getByTestId('ticket-row');
  await expect(rows.filter({ hasText: branchCustomer })).toBeVisible();
  await expect(rows.filter({ hasText: homeCustomer })).toHaveCount(0);
  // The header says which client is open.
  await expect(page.getByTestId('user-menu-role')).toContainText(bandung);
  // A reload keeps the branch and does not ask again.
  await page.reload();
  await showEveryCreatedDate(page);
  await expect(rows.filter({ hasText: branchCustomer })).toBeVisible();
  await expect(options).toHaveCount(0);

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Ganti klien' }).click();
  await expect(options.filter({ hasText: bandung })).toContainText('Saat ini');
  // The home client is listed first.
  await expect(options.nth(0)).not.toContainText('Bandung');
  await options.nth(0).click();
  await expect(options).toHaveCount(0);

  await page.goto('/customer-service/ticket-view');
  await showEveryCreatedDate(page);
  await expect(rows.filter({ hasText: homeCustomer }).first()).toBeVisible();
  await expect(rows.filter({ hasText: branchCustomer })).toHaveCount(0);
  await expect(page.getByTestId('user-menu-role')).not.toContainText('Bandung');
});

test('someone with one client is never offered the dialog', async ({ page }) => {
  await page.goto('/login');
  // The supervisor belongs to Toko Demo only (the admin is left to the 2-step journey).
  await submitLogin(page, 'supervisor@demo.test');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Keluar' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Ganti klien' })).toHaveCount(0);
  await expect(page.getByTestId('client-option')).toHaveCount(0);
});
