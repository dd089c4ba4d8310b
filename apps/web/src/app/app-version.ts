import { appVersion } from '@app/contracts';
import { storageKeys } from '../shared/storage-keys';

/**
 * Reloads once when the stored app version differs from this build (core-inbox §4), so
 * state written by an older version is read by fresh code. The new version is stored
 * before reloading, so a second load finds it and cannot loop. A first visit (nothing
 * stored) just records the version.
 *
 * @returns true when a reload was started and nothing else should run.
 */
export function reloadForNewVersion(): boolean {
  const stored = localStorage.getItem(storageKeys.appVersion);
  if (stored === appVersion) return false;
  localStorage.setItem(storageKeys.appVersion, appVersion);
  if (stored === null) return false;
  window.location.reload();
  return true;
}
