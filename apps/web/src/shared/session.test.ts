import { beforeEach, describe, expect, it } from 'vitest';
import { endSession, getSession, onSessionEnded } from './session';
import { storageKeys } from './storage-keys';

describe('endSession', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('clears every stored client state but the chosen language, and says why once', () => {
    localStorage.setItem(storageKeys.accessToken, 'a.b.c');
    localStorage.setItem(storageKeys.refreshToken, 'refresh');
    localStorage.setItem(storageKeys.language, 'en');
    localStorage.setItem(storageKeys.timezone, 'Asia/Jakarta');
    localStorage.setItem(storageKeys.appVersion, '1.23.1');
    localStorage.setItem('omni.inbox.notificationPromptDismissed', '1');
    localStorage.setItem('not-ours', 'kept');
    sessionStorage.setItem('omni.draft', 'hello');
    const reasons: string[] = [];
    const stop = onSessionEnded((reason) => reasons.push(reason));

    endSession('signed-out');
    endSession('signed-out');
    stop();

    expect(reasons).toEqual(['signed-out']);
    expect(getSession()).toBeNull();
    expect(localStorage.getItem(storageKeys.language)).toBe('en');
    expect(localStorage.getItem('not-ours')).toBe('kept');
    for (const key of [
      storageKeys.accessToken,
      storageKeys.refreshToken,
      storageKeys.timezone,
      storageKeys.appVersion,
      'omni.inbox.notificationPromptDismissed',
    ]) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    expect(sessionStorage.length).toBe(0);
  });
});
