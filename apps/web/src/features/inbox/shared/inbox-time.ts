import { defaultTimezone } from '@app/contracts';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { useEffect, useState } from 'react';
import type { Session } from '../../../shared/session';

dayjs.extend(utc);
dayjs.extend(timezone);

/** A calendar day as the date pickers give it: `YYYY-MM-DD`. */
export type DayString = string;
export type DayRange = [DayString | null, DayString | null];

/**
 * The client's time zone from the access token (`sub.clientTimezone`): dates in the inbox
 * are the business's days, not the browser's, so two agents abroad see the same "today".
 */
export function clientTimezoneOf(session: Session | null): string {
  const zone = session?.claims.sub.clientTimezone;
  if (!zone) return defaultTimezone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return defaultTimezone;
  }
}

function localeOf(language: string): string {
  return language === 'id' ? 'id-ID' : 'en-GB';
}

/** Today in the zone, as a one-day range (the created-date filter's default). */
export function todayRange(zone: string, now: Date = new Date()): DayRange {
  const today = dayjs(now).tz(zone).format('YYYY-MM-DD');
  return [today, today];
}

/**
 * The instants a day range covers in the zone: from the first day's midnight to the end
 * of the last day. Open ends stay open.
 */
export function dayRangeToInstants(
  range: DayRange,
  zone: string,
): { from: string | undefined; to: string | undefined } {
  const [start, end] = range;
  return {
    from: start ? dayjs.tz(start, zone).startOf('day').toISOString() : undefined,
    to: end ? dayjs.tz(end, zone).endOf('day').toISOString() : undefined,
  };
}

/** Whole days a range spans, counting both ends (a one-day range is 1). */
export function daysInRange(range: DayRange): number {
  const [start, end] = range;
  if (!start || !end) return 0;
  return dayjs(end).diff(dayjs(start), 'day') + 1;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** Building a formatter costs far more than using one; a table row must not pay that twice. */
function dateTimeFormatOf(language: string, zone: string): Intl.DateTimeFormat {
  const key = `${language}|${zone}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(localeOf(language), {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** Date and time in the zone, short: "22 Nov 2026 19.07". */
export function formatDateTimeShort(iso: string | null, language: string, zone: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateTimeFormatOf(language, zone).format(date);
}

/** A day range for a button label: "1 Nov – 22 Nov 2026". */
export function formatDayRange(range: DayRange, language: string): string {
  const [start, end] = range;
  if (!start) return '';
  const format = (day: DayString, withYear: boolean) =>
    new Intl.DateTimeFormat(localeOf(language), {
      day: 'numeric',
      month: 'short',
      year: withYear ? 'numeric' : undefined,
      timeZone: 'UTC',
    }).format(new Date(`${day}T00:00:00Z`));
  if (!end || end === start) return format(start, true);
  return `${format(start, start.slice(0, 4) !== end.slice(0, 4))} – ${format(end, true)}`;
}

/**
 * How long ago something happened, the way chat lists say it: "baru saja", "5 mnt", "3 jam",
 * then "kemarin", then the date. Days are counted in the client's zone.
 */
export function formatTimeAgo(iso: string, language: string, zone: string, now: Date = new Date()): string {
  const then = dayjs(iso);
  if (!then.isValid()) return '';
  const seconds = Math.max(0, dayjs(now).diff(then, 'second'));
  const relative = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto', style: 'narrow' });
  if (seconds < 60) return relative.format(0, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  const dayOfNow = dayjs(now).tz(zone).startOf('day');
  const dayOfThen = then.tz(zone).startOf('day');
  const daysApart = dayOfNow.diff(dayOfThen, 'day');
  if (daysApart === 0) return relative.format(-Math.floor(seconds / 3600), 'hour');
  if (daysApart === 1) return relative.format(-1, 'day');
  return new Intl.DateTimeFormat(localeOf(language), {
    day: 'numeric',
    month: 'short',
    year: daysApart > 300 ? 'numeric' : undefined,
    timeZone: zone,
  }).format(then.toDate());
}

/** The current time, ticking every `intervalMs`, so "5 mnt" becomes "6 mnt" on its own. */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
