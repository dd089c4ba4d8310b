import { useSyncExternalStore } from 'react';

/** The shell's two snackbars (core-inbox §2): one bottom-left, one top-centre. */
export type SnackbarPosition = 'top' | 'bottom';
export type SnackbarTone = 'info' | 'success' | 'warning' | 'error';

export interface Snackbar {
  id: number;
  /** Plain text at the bottom; sanitized markup at the top. */
  message: string;
  tone: SnackbarTone;
}

type SnackbarState = Record<SnackbarPosition, Snackbar | null>;

let state: SnackbarState = { top: null, bottom: null };
let nextId = 1;
const listeners = new Set<() => void>();

function update(next: SnackbarState) {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * Shows a message in one of the two snackbars; a new message replaces the one already
 * there, so a burst of errors never stacks up over the screen.
 */
export function showSnackbar(position: SnackbarPosition, message: string, tone: SnackbarTone = 'info'): void {
  update({ ...state, [position]: { id: nextId++, message, tone } });
}

/** Closes a snackbar; the id guard stops an old time-out from closing a newer message. */
export function closeSnackbar(position: SnackbarPosition, id?: number): void {
  if (id !== undefined && state[position]?.id !== id) return;
  update({ ...state, [position]: null });
}

export function useSnackbars(): SnackbarState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
