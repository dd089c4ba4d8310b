import { useSyncExternalStore } from 'react';

let message: string | null = null;
const listeners = new Set<() => void>();

function update(next: string | null) {
  message = next;
  for (const listener of listeners) listener();
}

/** Opens the shell's information dialog (titled Informasi, one Ok button). */
export function showInfoDialog(text: string): void {
  update(text);
}

export function closeInfoDialog(): void {
  update(null);
}

export function useInfoDialogMessage(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => message,
  );
}
