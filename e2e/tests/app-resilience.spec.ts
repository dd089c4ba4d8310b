import { expect, test, type WebSocket } from '@playwright/test';
import { demoUsers, signIn, storageKeys } from '../support/demo';

test('the signed-in app opens the chat socket with its token and gets the hello', async ({ page }) => {
  const sockets: WebSocket[] = [];
  const received: string[] = [];
  page.on('websocket', (socket) => {
    sockets.push(socket);
    // Listen at once: the hello arrives as soon as the socket opens.
    socket.on('framereceived', (frame) => received.push(String(frame.payload)));
  });
  await signIn(page, demoUsers.owner);

  await expect.poll(() => received.some((payload) => payload.includes('"type":"hello"'))).toBe(true);
  expect(sockets).toHaveLength(1);
  expect(sockets[0].url()).toContain('/ws?token=');
  expect(sockets[0].isClosed()).toBe(false);
});

test('a screen whose code cannot be loaded offers a reload', async ({ page }) => {
  await signIn(page, demoUsers.owner);
  await page.route('**/assets/account-page-*.js', (route) => route.abort('connectionreset'));
  await page.getByRole('navigation', { name: 'Menu utama' }).getByRole('link', { name: 'Akun' }).click();

  await expect(page.getByRole('heading', { name: 'Halaman gagal dimuat' })).toBeVisible();
  // The navigation is over: the top progress bar must not keep spinning on a failed screen.
  await expect(page.locator('[role="progressbar"]')).not.toHaveAttribute('data-busy', /.*/);
  await page.unroute('**/assets/account-page-*.js');
  await page.getByRole('button', { name: 'Muat ulang' }).click();
  await expect(page.getByTestId('account-name')).toBeVisible();
});

test('a different stored app version reloads the app once and stores the new version', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate((key) => localStorage.setItem(key, '1.0.0'), storageKeys.appVersion);

  let documentLoads = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) documentLoads += 1;
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Selamat datang kembali' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(await page.evaluate((key) => localStorage.getItem(key), storageKeys.appVersion)).toBe('1.23.1');
  // Our reload plus the one the app started; a loop would keep counting.
  expect(documentLoads).toBe(2);
});
