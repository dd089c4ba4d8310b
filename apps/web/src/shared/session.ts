import { type AccessTokenClaims, type AppAbility, accessTokenClaims, buildAbility } from '@app/contracts';
import { sessionStorageKeys, storageKeys } from './storage-keys';

/** The token pair the app keeps between visits. */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
}

/** Where the api client reads and writes tokens; injected so tests can use memory. */
export interface TokenStore {
  read(): StoredTokens | null;
  write(tokens: StoredTokens): void;
}

/** A signed-in session as the web app sees it: tokens, their claims and the ability. */
export interface Session extends StoredTokens {
  claims: AccessTokenClaims;
  /** Epoch milliseconds from the `exp` claim, or null when the token has none. */
  expiresAt: number | null;
  ability: AppAbility;
}

/** Why a session ended: decides where the user goes and what they are told. */
export type SessionEndReason = 'signed-out' | 'expired' | 'password-changed';

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  // atob yields bytes as Latin-1; names in claims can be any UTF-8 text.
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/**
 * Reads the claims of an access token without verifying it: the server verifies on
 * every call, the web app only needs them to decide what to show.
 */
export function decodeAccessToken(
  token: string,
): { claims: AccessTokenClaims; expiresAt: number | null } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const raw: unknown = JSON.parse(decodeBase64Url(payload));
    const parsed = accessTokenClaims.safeParse(raw);
    if (!parsed.success) return null;
    const exp = (raw as { exp?: unknown }).exp;
    return { claims: parsed.data, expiresAt: typeof exp === 'number' ? exp * 1000 : null };
  } catch {
    return null;
  }
}

type Listener = () => void;
const changeListeners = new Set<Listener>();
const endListeners = new Set<(reason: SessionEndReason) => void>();

function notifyChange() {
  for (const listener of changeListeners) listener();
}

/** The browser's token store: localStorage, so a reload or a second tab keeps the session. */
export const browserTokenStore: TokenStore & { clear(): void } = {
  read() {
    const accessToken = localStorage.getItem(storageKeys.accessToken);
    const refreshToken = localStorage.getItem(storageKeys.refreshToken);
    return accessToken && refreshToken ? { accessToken, refreshToken } : null;
  },
  write(tokens) {
    localStorage.setItem(storageKeys.accessToken, tokens.accessToken);
    localStorage.setItem(storageKeys.refreshToken, tokens.refreshToken);
    notifyChange();
  },
  clear() {
    for (const key of sessionStorageKeys) localStorage.removeItem(key);
    notifyChange();
  },
};

let cached: { accessToken: string; refreshToken: string; session: Session | null } | null = null;

/**
 * The current session, or null when signed out. Memoised per token so the ability is
 * built once per token rather than on every navigation.
 */
export function getSession(): Session | null {
  const tokens = browserTokenStore.read();
  if (!tokens) return null;
  if (cached && cached.accessToken === tokens.accessToken && cached.refreshToken === tokens.refreshToken) {
    return cached.session;
  }
  const decoded = decodeAccessToken(tokens.accessToken);
  const session: Session | null = decoded
    ? {
        ...tokens,
        ...decoded,
        ability: buildAbility(decoded.claims),
      }
    : null;
  cached = { ...tokens, session };
  return session;
}

/** Stores the tokens of a fresh sign-in. */
export function startSession(tokens: StoredTokens): void {
  browserTokenStore.write(tokens);
}

/** Every key the app writes starts with this (see storage-keys.ts), so others' keys are left alone. */
const appStoragePrefix = 'omni.';

/** What outlives a sign-out: the chosen language, so /login and the next user keep it. */
const keptAfterSignOut: ReadonlySet<string> = new Set([storageKeys.language]);

/**
 * Clears every client state the app stored (core-inbox §4 Login: sign-out clears all
 * stored state), keeping only the chosen language; the next user starts clean.
 */
export function clearStoredClientState(): void {
  const keys: string[] = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (key?.startsWith(appStoragePrefix) && !keptAfterSignOut.has(key)) keys.push(key);
  }
  for (const key of keys) localStorage.removeItem(key);
  sessionStorage.clear();
}

/**
 * Clears the stored client state and tells the app why, once per session: a second call
 * (for example sign-out after a failed refresh already ended it) stays silent.
 */
export function endSession(reason: SessionEndReason): void {
  const hadSession = browserTokenStore.read() !== null;
  clearStoredClientState();
  browserTokenStore.clear();
  if (!hadSession && reason !== 'password-changed') return;
  for (const listener of endListeners) listener(reason);
}

/** Called whenever the stored tokens change, in this tab or another one. */
export function onSessionChange(listener: Listener): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Called when a session ends; the app clears its caches and goes to /login. */
export function onSessionEnded(listener: (reason: SessionEndReason) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/**
 * Follows sign-in and sign-out made in other tabs (localStorage is shared between them):
 * a tab left open must not keep acting for a session that another tab ended.
 */
export function watchOtherTabs(): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key !== null && !sessionStorageKeys.includes(event.key)) return;
    notifyChange();
    // A removed token or a cleared storage (key null) both mean the other tab signed out.
    const removed = event.key === null || (event.key === storageKeys.accessToken && event.newValue === null);
    if (removed && browserTokenStore.read() === null) {
      for (const listener of endListeners) listener('signed-out');
    }
  };
  window.addEventListener('storage', handle);
  return () => window.removeEventListener('storage', handle);
}
