import { defaultTimezone } from '@app/contracts';
import { storageKeys } from './storage-keys';

/** The browser's time zone, or Asia/Jakarta when the browser cannot tell (core-inbox §9). */
export function browserTimezone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) return zone;
  } catch {
    // Very old or locked-down browsers throw here; the spec's default applies.
  }
  return defaultTimezone;
}

/** Keeps the browser's time zone in the client, as the spec asks, and returns it. */
export function rememberTimezone(): string {
  const zone = browserTimezone();
  localStorage.setItem(storageKeys.timezone, zone);
  return zone;
}

const rupiahNumber = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });

/** Money amounts in the Rupiah style (dots between thousands), whatever the UI language. */
export function formatRupiahNumber(amount: number): string {
  return rupiahNumber.format(amount);
}

/** A date and time in the given zone, written the way the language writes dates. */
export function formatDateTime(iso: string, language: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(language === 'id' ? 'id-ID' : 'en-GB', {
      dateStyle: 'long',
      timeZone,
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** A country's name from its ISO code in the UI language (e.g. ID → Indonesia). */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Up to two initials of a name for the avatar, or of the e-mail when there is no name. */
export function initialsOf(name: string | undefined, fallback: string): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0][0]}${words[words.length - 1][0]}`.toUpperCase();
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return fallback.slice(0, 2).toUpperCase();
}
