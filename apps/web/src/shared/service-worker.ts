/**
 * The app's service worker, from the page's side (issue 14; core-inbox §4 "On a
 * service-worker update cookies and local storage are cleared"). Registering happens in
 * production builds only, so development never serves a stale shell.
 */

/** The slice of `navigator.serviceWorker` the page uses (a fake in tests). */
export interface ServiceWorkerHost {
  readonly controller: object | null;
  register(url: string): Promise<unknown>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** What the page does when the worker says so. */
export interface PageEffects {
  clearCookies(): void;
  clearLocalStorage(): void;
  reload(): void;
  /** Opens an app path (a notification was clicked while the page was not controlled). */
  open(url: string): void;
}

export const serviceWorkerUrl = '/sw.js';

/**
 * Tells a first install from an update. A page that loaded without a controller and then
 * gains one was merely claimed by the first worker: nothing to do. A page that already had
 * a controller and gets another was taken over by a new version: per the spec it clears
 * cookies and local storage and reloads, once (a second change before the reload is ignored).
 */
export function watchServiceWorker(host: ServiceWorkerHost, effects: PageEffects): void {
  let controlled = host.controller !== null;
  let reloading = false;
  host.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (reloading) return;
    reloading = true;
    effects.clearCookies();
    effects.clearLocalStorage();
    effects.reload();
  });
  host.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown; url?: unknown } | null;
    if (data?.type === 'navigate' && typeof data.url === 'string') effects.open(data.url);
  });
}

/** Expires every cookie this page can see, on its path and the root. */
export function clearDocumentCookies(doc: Pick<Document, 'cookie'> = document): void {
  for (const pair of doc.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (!name) continue;
    for (const path of ['/', window.location.pathname]) {
      doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
    }
  }
}

const browserEffects: PageEffects = {
  clearCookies: () => clearDocumentCookies(),
  clearLocalStorage: () => localStorage.clear(),
  reload: () => window.location.reload(),
  open: (url) => {
    const target = new URL(url, window.location.origin);
    if (target.origin === window.location.origin) window.location.assign(target.href);
  },
};

/** Registers /sw.js in production builds and watches for a new version taking over. */
export function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const host = navigator.serviceWorker as unknown as ServiceWorkerHost;
  watchServiceWorker(host, browserEffects);
  const register = () =>
    void host.register(serviceWorkerUrl).catch((error: unknown) => {
      console.warn('The service worker could not be registered', error);
    });
  // After the page has loaded, so the worker's own downloads never slow the first screen.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * The registration push subscribes through: the existing one, or /sw.js registered now
 * (also in development, where only push needs it).
 */
export async function serviceWorkerRegistration(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) throw new Error('service workers are not supported');
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing) await navigator.serviceWorker.register(serviceWorkerUrl);
  return navigator.serviceWorker.ready;
}
