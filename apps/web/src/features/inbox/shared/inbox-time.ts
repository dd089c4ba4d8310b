import { defaultTimezone } from '@app/contracts';
import { useEffect, useState } from 'react';
import type { Session } from '../../../shared/session';

// Plain Intl rather than dayjs and its time-zone plugins: the ticket list needs these on
// first paint, and dayjs loads only with the date pickers.

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

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in the zone, `YYYY-MM-DD`. */
export function dayIn(zone: string, instant: Date = new Date()): DayString {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(zone: string, utcMs: number): number {
  let format = wallClockFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockFormats.set(zone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(new Date(utcMs)).map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** Milliseconds since the epoch of a `YYYY-MM-DD` midnight read as UTC. */
function utcMidnight(day: DayString): number {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date);
}

/** The instant the day starts in the zone (twice corrected, for days a clock change shifts). */
function startOfDayIn(day: DayString, zone: string): number {
  const wall = utcMidnight(day);
  const guess = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, guess);
}

const dayMs = 86_400_000;

/** The next calendar day, `YYYY-MM-DD`. */
function nextDay(day: DayString): DayString {
  return new Date(utcMidnight(day) + dayMs).toISOString().slice(0, 10);
}

/** Today in the zone, as a one-day range (the created-date filter's default). */
export function todayRange(zone: string, now: Date = new Date()): DayRange {
  const today = dayIn(zone, now);
  return [today, today];
}

/** When the day after `day` starts in the zone, in ms since the epoch. */
export function nextDayStart(day: DayString, zone: string): number {
  return startOfDayIn(nextDay(day), zone);
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
    from: start ? new Date(startOfDayIn(start, zone)).toISOString() : undefined,
    to: end ? new Date(startOfDayIn(nextDay(end), zone) - 1).toISOString() : undefined,
  };
}

/** Whole days a range spans, counting both ends (a one-day range is 1). */
export function daysInRange(range: DayRange): number {
  const [start, end] = range;
  if (!start || !end) return 0;
  return Math.round((utcMidnight(end) - utcMidnight(start)) / dayMs) + 1;
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
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return '';
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  const relative = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto', style: 'narrow' });
  if (seconds < 60) return relative.format(0, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  const daysApart = daysInRange([dayIn(zone, then), dayIn(zone, now)]) - 1;
  if (daysApart === 0) return relative.format(-Math.floor(seconds / 3600), 'hour');
  if (daysApart === 1) return relative.format(-1, 'day');
  return new Intl.DateTimeFormat(localeOf(language), {
    day: 'numeric',
    month: 'short',
    year: daysApart > 300 ? 'numeric' : undefined,
    timeZone: zone,
  }).format(then);
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
