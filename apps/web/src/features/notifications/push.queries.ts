import { type PushSubscriptionInput, pushStateResponse, vapidPublicKeyResponse } from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';
import { serviceWorkerRegistration } from '../../shared/service-worker';

/** The key this server's pushes are signed with (applicationServerKey). */
export function fetchVapidPublicKey() {
  return api.get('/api/identity/pushnotif/vapid-public-key', { schema: vapidPublicKeyResponse });
}

/** Stores this session's subscription on the server, or removes it with null. */
export function savePushSubscription(pushSubscription: PushSubscriptionInput | null) {
  return api.put('/api/identity/users/userProfile', { pushSubscription }, { schema: pushStateResponse });
}

/** The app goes to the background: answers whether this session still gets pushes. */
export function reportPushOffline() {
  return api.post('/api/identity/pushnotif/offline', undefined, { schema: pushStateResponse });
}

/** Whether this browser can take Web Push at all. */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof window.Notification !== 'undefined'
  );
}

const keyBytes = (base64url: string) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
};

const sameKey = (key: ArrayBuffer | null | undefined, expected: Uint8Array) =>
  key !== null && key !== undefined && new Uint8Array(key).join() === expected.join();

/**
 * Asks for permission, subscribes this browser with the server's key (replacing a
 * subscription made with another key) and stores it for this session. Any step failing
 * throws; the caller shows the spec's "push notification activation failed".
 */
export async function activatePush(): Promise<void> {
  if (!pushSupported()) throw new Error('push is not supported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(`notification permission ${permission}`);
  const registration = await serviceWorkerRegistration();
  const { publicKey } = dataOrThrow(await fetchVapidPublicKey());
  const applicationServerKey = keyBytes(publicKey);
  let subscription: PushSubscription | null = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  const json = subscription.toJSON();
  const keys = json.keys ?? {};
  if (!json.endpoint || !keys.p256dh || !keys.auth) throw new Error('subscription has no keys');
  dataOrThrow(
    await savePushSubscription({ endpoint: json.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }),
  );
}

/** Turns pushes off for this session and this browser. */
export async function deactivatePush(): Promise<void> {
  dataOrThrow(await savePushSubscription(null));
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}

/** This browser's subscription, when it has one and may show notifications. */
async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported() || Notification.permission !== 'granted') return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export const pushStateQueryKey = ['notifications', 'push-state'] as const;

/** Whether pushes are on in this browser (what the activation card shows). */
export function pushStateQueryOptions() {
  return queryOptions({
    queryKey: pushStateQueryKey,
    queryFn: async () => ({ supported: pushSupported(), active: (await currentSubscription()) !== null }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * A browser that subscribed earlier keeps its subscription across sign-outs, while the
 * server dropped it with the old session: the new session stores it again, silently.
 */
export async function restorePushSubscription(): Promise<void> {
  const json = (await currentSubscription())?.toJSON();
  if (!json?.endpoint || !json.keys?.p256dh || !json.keys.auth) return;
  await savePushSubscription({
    endpoint: json.endpoint,
    keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
  });
}
