import { z } from 'zod';

/**
 * Web Push notifications (issue 14; core-inbox "PUT users/userProfile (push token)",
 * "POST pushnotif/offline"): a browser's subscription as the Push API hands it over, and the
 * small notification the service worker shows.
 */

/** Base64url without padding, as PushSubscription.toJSON() writes the keys. */
const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A browser's push subscription (PushSubscription.toJSON(), without expirationTime). */
export const pushSubscriptionInput = z.object({
  endpoint: z.string().trim().url().max(2048),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes, 87 characters). */
    p256dh: base64url.length(87),
    /** The 16-byte auth secret (22 characters). */
    auth: base64url.length(22),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** PUT /api/identity/users/userProfile: stores (or, with null, removes) this session's subscription. */
export const userProfileBody = z.object({ pushSubscription: pushSubscriptionInput.nullable() });
export type UserProfileBody = z.infer<typeof userProfileBody>;

/** Whether this session will be sent pushes. */
export const pushStateResponse = z.object({ pushEnabled: z.boolean() });
export type PushStateResponse = z.infer<typeof pushStateResponse>;

/** GET /api/identity/pushnotif/vapid-public-key: the key the browser subscribes with. */
export const vapidPublicKeyResponse = z.object({ publicKey: z.string() });
export type VapidPublicKeyResponse = z.infer<typeof vapidPublicKeyResponse>;

/** What one push carries; the service worker shows it as a notification. */
export const pushNotificationPayload = z.object({
  /** The customer's name. */
  title: z.string(),
  /** The message preview, at most 120 characters. */
  body: z.string().max(120),
  /** The app path a click opens. */
  url: z.string(),
  /** One notification per ticket: a newer one replaces the older. */
  tag: z.string(),
});
export type PushNotificationPayload = z.infer<typeof pushNotificationPayload>;

/** Limits of Web Push delivery. */
export const pushLimits = {
  previewMax: 120,
  /** How long a push service keeps an undelivered push (seconds). */
  ttlSeconds: 3600,
  /** Lifetime of a VAPID token (RFC 8292 allows at most 24 h). */
  vapidTokenSeconds: 12 * 3600,
} as const;

/** The service-side texts of push (the web's own texts live in its locale files). */
export const pushErrorMessages = {
  insecureEndpoint: 'Push endpoint must be an https URL',
} as const;
