/*
 * The app's service worker (issue 14). It keeps the app shell (index.html and the hashed
 * assets it loads) so the app opens on a bad connection, and it shows Web Push notifications
 * for new chats and messages. Plain JavaScript: it is served as it is, at /sw.js, with
 * `Cache-Control: no-cache` so a new version is noticed at once.
 *
 * A new version takes over at once (skipWaiting); the page sees the controller change and,
 * per the spec, clears cookies and local storage and reloads (src/shared/service-worker.ts).
 * It never claims pages on its first install, so a page is only controlled from its next load.
 */
const shellCache = 'app-shell-v1';
const shellUrl = '/';
/** Paths the app shell never answers: the API, sockets, the widget and this file. */
const passThrough = /^\/(api|ws|widget|sw\.js)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      try {
        const cache = await caches.open(shellCache);
        const response = await fetch(shellUrl, { cache: 'reload' });
        if (response.ok) {
          const html = await response.clone().text();
          await cache.put(shellUrl, response);
          const assets = [...new Set(html.match(/\/assets\/[^"'\s)]+/g) ?? [])];
          await cache.addAll(assets);
        }
      } catch {
        // Offline while installing: the shell is cached by the next visit instead.
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== shellCache) await caches.delete(name);
      }
    })(),
  );
});

/** A new build's index.html: the old build's assets are dropped, so the cache never grows. */
async function keepShell(cache, response) {
  const previous = await cache.match(shellUrl);
  const [before, after] = await Promise.all([previous?.text(), response.clone().text()]);
  if (before !== undefined && before !== after) {
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.startsWith('/assets/')) await cache.delete(request);
    }
  }
  await cache.put(shellUrl, response);
}

/** Pages: the network first (always the newest index.html), the cached shell when offline. */
async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(shellCache);
  try {
    const response = await fetch(request);
    const type = response.headers.get('content-type') ?? '';
    // Stored after answering, so the page never waits for the cache.
    if (response.ok && type.includes('text/html')) event.waitUntil(keepShell(cache, response.clone()));
    return response;
  } catch (error) {
    const cached = await cache.match(shellUrl);
    if (cached) return cached;
    throw error;
  }
}

/** Hashed assets never change under one name: the cache first, the network once. */
async function cacheFirst(request) {
  const cache = await caches.open(shellCache);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || passThrough.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(networkFirst(event));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(request));
});

/** The path a notification opens, kept to this origin. */
function targetOf(data) {
  const url = new URL(typeof data?.url === 'string' ? data.url : '/', self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL('/', self.location.origin).href;
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    (async () => {
      // A visible window shows its own alert from the live socket; a second one would be noise.
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (windows.some((client) => client.visibilityState === 'visible')) return;
      await self.registration.showNotification(data.title || 'Omni Inbox', {
        body: data.body || '',
        tag: data.tag || undefined,
        renotify: Boolean(data.tag),
        icon: '/favicon.svg',
        data: { url: targetOf(data) },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification.data);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) {
        await self.clients.openWindow(target);
        return;
      }
      await open.focus();
      // Only a controlled page can be navigated from here; any other is asked to go itself.
      const navigated = await open.navigate?.(target).catch(() => null);
      if (!navigated) open.postMessage({ type: 'navigate', url: target });
    })(),
  );
});
