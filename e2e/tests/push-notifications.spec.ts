import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { demoUsers, signIn, storedAccessToken } from '../support/demo';

/**
 * Web Push and the service worker (issue 14). Headless Chromium has no push service (its
 * subscribe answers "permission denied"), so delivery itself is proven by the server's test
 * against a local push service; here the journeys prove the worker, the activation screens
 * and that a subscription reaches the server.
 */

const openUserMenu = (page: Page) => page.getByTestId('user-menu').click();

/** Stands in for the browser's push service: subscribe hands out a subscription with real-sized keys. */
async function fakePushService(page: Page) {
  await page.addInitScript(() => {
    const bytes = (length: number, first?: number) => {
      const array = crypto.getRandomValues(new Uint8Array(length));
      if (first !== undefined) array[0] = first;
      return btoa(String.fromCharCode(...array))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    };
    let current: unknown = null;
    const make = (key: BufferSource) => ({
      endpoint: `https://push.example.test/send/${bytes(12)}`,
      options: { applicationServerKey: key, userVisibleOnly: true },
      keys: { p256dh: bytes(65, 4), auth: bytes(16) },
      toJSON() {
        return { endpoint: this.endpoint, expirationTime: null, keys: this.keys };
      },
      async unsubscribe() {
        current = null;
        return true;
      },
    });
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      current = make(options?.applicationServerKey as BufferSource);
      return current as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
  });
}

async function pushEnabledOnServer(page: Page): Promise<boolean> {
  const token = await storedAccessToken(page);
  const response = await page.request.post('/api/identity/pushnotif/offline', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { pushEnabled: boolean }).pushEnabled;
}

test('the service worker is served uncached, registers, controls the app after a reload and keeps its shell', async ({
  page,
  context,
}) => {
  const script = await page.request.get('/sw.js');
  expect(script.ok()).toBe(true);
  expect(script.headers()['cache-control']).toBe('no-cache');
  expect(script.headers()['content-type']).toContain('javascript');

  await page.goto('/login');
  const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(scriptUrl).toMatch(/\/sw\.js$/);
  // The first install never claims the page it was registered from.
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Selamat datang kembali' })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  // Offline, the cached shell still opens.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Selamat datang kembali' })).toBeVisible();
  await context.setOffline(false);
  // The shell it serves still signs in (the API passes straight through the worker).
  await signIn(page, demoUsers.agent1);
});

/** Delivers a push to the page's service worker the way the browser would (DevTools protocol). */
async function pushDeliverer(context: BrowserContext, page: Page, origin: string) {
  const cdp = await context.newCDPSession(page);
  const registrations: string[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
    for (const registration of event.registrations) {
      if (!registration.isDeleted) registrations.push(registration.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');
  return async (payload: object) => {
    await expect.poll(() => registrations.length).toBeGreaterThan(0);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: registrations[registrations.length - 1],
      data: JSON.stringify(payload),
    });
  };
}

const shownNotifications = (page: Page, tag: string) =>
  page.evaluate(async (wanted) => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications({ tag: wanted })).map((notification) => ({
      title: notification.title,
      body: notification.body,
      url: (notification.data as { url: string }).url,
    }));
  }, tag);

test('a push shows a notification while no window of the app is visible, and none while one is', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['notifications']);
  const origin = new URL(baseURL as string).origin;
  const deliver = await pushDeliverer(context, page, origin);
  await page.goto('/login');
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));

  // The app is on screen: its own alerts cover it, the worker stays quiet.
  await deliver({ title: 'Sari', body: 'Masih ada?', url: '/x', tag: 'ticket-6' });
  await page.waitForTimeout(500);
  expect(await shownNotifications(page, 'ticket-6')).toEqual([]);

  await page.goto('about:blank');
  await deliver({
    title: 'Budi',
    body: 'Halo kak, stok ada?',
    url: '/customer-service/inbox-chatroom?ticketId=5',
    tag: 'ticket-5',
  });
  await page.waitForTimeout(500);
  await page.goto('/login');
  await expect
    .poll(() => shownNotifications(page, 'ticket-5'))
    .toEqual([
      {
        title: 'Budi',
        body: 'Halo kak, stok ada?',
        url: `${origin}/customer-service/inbox-chatroom?ticketId=5`,
      },
    ]);
});

test('without a push service, activation says it failed and offers the activate button again', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await signIn(page, demoUsers.agent1);
  await openUserMenu(page);
  const section = page.getByTestId('push-menu-section');
  await section.getByRole('button', { name: 'Aktifkan notifikasi' }).click();
  await expect(section.getByText('Aktivasi notifikasi push gagal')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Aktifkan notifikasi' })).toBeEnabled();
  expect(await pushEnabledOnServer(page)).toBe(false);
});

test('an agent activates notifications from the user menu and the server stores the subscription', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await fakePushService(page);
  await signIn(page, demoUsers.agent1);
  expect(await pushEnabledOnServer(page)).toBe(false);

  await openUserMenu(page);
  const section = page.getByTestId('push-menu-section');
  await section.getByRole('button', { name: 'Aktifkan notifikasi' }).click();
  await expect(section.getByText('Notifikasi aktif di perangkat ini')).toBeVisible();
  await expect.poll(() => pushEnabledOnServer(page)).toBe(true);

  // Going to the background posts pushnotif/offline, which confirms pushes will come here.
  const offline = page.waitForRequest(
    (request) => request.method() === 'POST' && request.url().endsWith('/api/identity/pushnotif/offline'),
  );
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });
  const answer = await (await offline).response();
  expect(await answer?.json()).toEqual({ pushEnabled: true });

  await section.getByRole('button', { name: 'Matikan notifikasi' }).click();
  await expect(section.getByRole('button', { name: 'Aktifkan notifikasi' })).toBeVisible();
  expect(await pushEnabledOnServer(page)).toBe(false);
});

test('the owner finds the activation card on the account page', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await fakePushService(page);
  await signIn(page, demoUsers.owner);
  await page.goto('/setting/account');
  const card = page.getByTestId('push-activation');
  await expect(card.getByRole('heading', { name: 'Notifikasi push' })).toBeVisible();
  await card.getByRole('button', { name: 'Aktifkan notifikasi' }).click();
  await expect(card.getByText('Notifikasi aktif di perangkat ini')).toBeVisible();
  await expect.poll(() => pushEnabledOnServer(page)).toBe(true);
});
