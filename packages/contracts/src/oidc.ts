import { z } from 'zod';

/** Whether Google sign-in is configured, so the sign-in page shows its button only then. */
export const oidcConfigResponse = z.object({ enabled: z.boolean() });
export type OidcConfigResponse = z.infer<typeof oidcConfigResponse>;

/** Where the web app wants to land after a Google sign-in: an in-app path only. */
export const oidcStartQuery = z.object({ redirect: z.string().max(500).optional() });
export type OidcStartQuery = z.infer<typeof oidcStartQuery>;

/** What the identity provider sends back to the callback (RFC 6749 §4.1.2). */
export const oidcCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});
export type OidcCallbackQuery = z.infer<typeof oidcCallbackQuery>;

/** The one-time code the callback put in `/login?oidc=`, traded once for the sign-in answer. */
export const oidcExchangeBody = z.object({ code: z.string().trim().min(1).max(200) });
export type OidcExchangeBody = z.infer<typeof oidcExchangeBody>;

/**
 * Why a Google sign-in ended without a session, as `/login?oidcError=<key>`; a key and
 * not a text, so the page shows it in the user's language and nothing else can be injected.
 */
export const oidcErrorKeys = [
  'emailNotRegistered',
  'emailUnverified',
  'accountLocked',
  'userInactive',
  'signInFailed',
] as const;
export type OidcErrorKey = (typeof oidcErrorKeys)[number];

/** The spec's text (issue 14) for each key, for logs and the API. */
export const oidcErrorMessages: Record<OidcErrorKey, string> = {
  emailNotRegistered: 'email not registered (ask the owner to register it)',
  emailUnverified: 'Google has not verified this e-mail address',
  accountLocked: 'Too many request',
  userInactive: 'User is inactive or has been deleted',
  signInFailed: 'Google sign-in failed, please try again',
};

/** The exchange code is unknown, used already or expired. */
export const oidcExchangeInvalidMessage = 'Sign-in code is invalid or expired, please sign in again';
