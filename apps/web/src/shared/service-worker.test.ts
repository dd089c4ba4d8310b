import { describe, expect, it } from 'vitest';
import { type PageEffects, type ServiceWorkerHost, watchServiceWorker } from './service-worker';

/** A stand-in for navigator.serviceWorker: the test decides when the controller changes. */
function fakeHost(controller: object | null) {
  const listeners: Record<string, Array<(event: { data: unknown }) => void>> = {};
  const host = {
    controller,
    register: async () => undefined,
    addEventListener(type: string, listener: (event: { data: unknown }) => void) {
      listeners[type] = [...(listeners[type] ?? []), listener];
    },
  } as ServiceWorkerHost;
  return {
    host,
    takeOver(next: object) {
      (host as { controller: object | null }).controller = next;
      for (const listener of listeners.controllerchange ?? []) listener({ data: undefined });
    },
    message(data: unknown) {
      for (const listener of listeners.message ?? []) listener({ data });
    },
  };
}

function recordingEffects() {
  const calls: string[] = [];
  const effects: PageEffects = {
    clearCookies: () => calls.push('cookies'),
    clearLocalStorage: () => calls.push('localStorage'),
    reload: () => calls.push('reload'),
    open: (url) => calls.push(`open ${url}`),
  };
  return { calls, effects };
}

describe('watchServiceWorker', () => {
  it('does nothing when the first worker claims a page that had none', () => {
    const { host, takeOver } = fakeHost(null);
    const { calls, effects } = recordingEffects();
    watchServiceWorker(host, effects);
    takeOver({ version: 1 });
    expect(calls).toEqual([]);
  });

  it('clears cookies and local storage, then reloads, when a new version takes over', () => {
    const { host, takeOver } = fakeHost({ version: 1 });
    const { calls, effects } = recordingEffects();
    watchServiceWorker(host, effects);
    takeOver({ version: 2 });
    expect(calls).toEqual(['cookies', 'localStorage', 'reload']);
  });

  it('reloads once even if the controller changes again before the reload', () => {
    const { host, takeOver } = fakeHost({ version: 1 });
    const { calls, effects } = recordingEffects();
    watchServiceWorker(host, effects);
    takeOver({ version: 2 });
    takeOver({ version: 3 });
    expect(calls.filter((call) => call === 'reload')).toHaveLength(1);
  });

  it('treats a change after the first claim as an update', () => {
    const { host, takeOver } = fakeHost(null);
    const { calls, effects } = recordingEffects();
    watchServiceWorker(host, effects);
    takeOver({ version: 1 });
    takeOver({ version: 2 });
    expect(calls).toEqual(['cookies', 'localStorage', 'reload']);
  });

  it('opens the path a clicked notification asks for, and ignores other messages', () => {
    const { host, message } = fakeHost({ version: 1 });
    const { calls, effects } = recordingEffects();
    watchServiceWorker(host, effects);
    message({ type: 'navigate', url: '/customer-service/inbox-chatroom?ticketId=7' });
    message({ type: 'other', url: '/x' });
    message(null);
    expect(calls).toEqual(['open /customer-service/inbox-chatroom?ticketId=7']);
  });
});
