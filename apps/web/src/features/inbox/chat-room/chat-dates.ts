/**
 * Dates of the chat room in the client's time zone. Formatters are costly to build and a
 * long room formats thousands of times, so they are built once per zone and language.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(key: string, locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    try {
      found = new Intl.DateTimeFormat(locale, options);
    } catch {
      // An unknown zone from an old browser: the browser's own zone is the best left.
      found = new Intl.DateTimeFormat(locale, { ...options, timeZone: undefined });
    }
    formatters.set(key, found);
  }
  return found;
}

const localeOf = (language: string) => (language === 'id' ? 'id-ID' : 'en-GB');

/** The calendar day of an instant in the zone, as YYYY-MM-DD (sortable, comparable). */
export function dayKeyOf(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter(`day:${timeZone}`, 'en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/** Hours and minutes, e.g. 14.05 in Indonesian and 14:05 in English. */
export function timeOf(iso: string, language: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter(`time:${timeZone}:${language}`, localeOf(language), {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}

/** A date with the time, for the customer panel and the closed notice. */
export function dateTimeOf(iso: string, language: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter(`datetime:${timeZone}:${language}`, localeOf(language), {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}

/** A day key written out for the separator: the weekday and date. */
export function dayLabelOf(dayKey: string, language: string): string {
  const [year, month, day] = dayKey.split('-').map(Number);
  if (!year || !month || !day) return dayKey;
  // Noon UTC falls on the same calendar day in every zone the product serves.
  const date = new Date(Date.UTC(year, month - 1, day, 12));
  return formatter(`label:${language}`, localeOf(language), {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(date);
}

/** 'today', 'yesterday' or null, comparing day keys in the same zone. */
export function relativeDayOf(
  dayKey: string,
  timeZone: string,
  now = new Date(),
): 'today' | 'yesterday' | null {
  const today = dayKeyOf(now.toISOString(), timeZone);
  if (dayKey === today) return 'today';
  const yesterday = dayKeyOf(new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString(), timeZone);
  return dayKey === yesterday ? 'yesterday' : null;
}
