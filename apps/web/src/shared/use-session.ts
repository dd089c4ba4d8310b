import { useSyncExternalStore } from 'react';
import { getSession, onSessionChange, type Session } from './session';

/** The current session, re-rendering when tokens change (refresh, sign-out, other tabs). */
export function useSession(): Session | null {
  return useSyncExternalStore(onSessionChange, getSession);
}
