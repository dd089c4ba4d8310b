/**
 * Every localStorage key the web app uses, in one place so sign-out can clear the
 * session without touching the user's preferences (language, app version).
 */
export const storageKeys = {
  accessToken: 'omni.accessToken',
  refreshToken: 'omni.refreshToken',
  language: 'omni.language',
  appVersion: 'omni.appVersion',
  timezone: 'omni.timezone',
  /** The request timing log; cleared on sign-out with the other `omni.` keys. */
  requestTiming: 'omni.requestTiming',
} as const;

/** Keys that belong to a signed-in session and go away on sign-out. */
export const sessionStorageKeys: ReadonlyArray<string> = [storageKeys.accessToken, storageKeys.refreshToken];
