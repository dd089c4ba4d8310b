import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { describe, expect, it } from 'vitest';
import { dayRangeToInstants, daysInRange, formatTimeAgo, nextDayStart, todayRange } from './inbox-time';

dayjs.extend(utc);
dayjs.extend(timezone);

// dayjs with its time-zone plugins did this work before; it stays the reference here.
const zones = ['Asia/Jakarta', 'Asia/Makassar', 'Asia/Kolkata', 'America/New_York', 'Europe/London', 'UTC'];
// Around midnight, and around the clock changes of New York and London in 2026.
const instants = [
  '2026-11-22T16:59:59.999Z',
  '2026-11-22T17:00:00.000Z',
  '2026-03-08T06:59:00.000Z',
  '2026-03-08T07:00:00.000Z',
  '2026-11-01T05:30:00.000Z',
  '2026-03-29T00:30:00.000Z',
  '2026-03-29T01:30:00.000Z',
  '2026-12-31T23:59:59.000Z',
];
const days = [
  '2026-01-01',
  '2026-03-08',
  '2026-03-29',
  '2026-11-01',
  '2026-10-25',
  '2026-11-22',
  '2024-02-29',
];

describe('inbox days in the client zone', () => {
  it('gives today in the zone as dayjs did', () => {
    for (const zone of zones)
      for (const instant of instants) {
        const expected = dayjs(instant).tz(zone).format('YYYY-MM-DD');
        expect(todayRange(zone, new Date(instant)), `${zone} ${instant}`).toEqual([expected, expected]);
      }
  });

  it('knows when the next day starts in the zone, also across a clock change', () => {
    for (const zone of zones)
      for (const day of days)
        expect(new Date(nextDayStart(day, zone)).toISOString(), `${zone} ${day}`).toBe(
          dayjs.tz(day, zone).add(1, 'day').startOf('day').toISOString(),
        );
    // Jakarta's midnight is 17:00 UTC the day before.
    expect(new Date(nextDayStart('2026-11-30', 'Asia/Jakarta')).toISOString()).toBe(
      '2026-11-30T17:00:00.000Z',
    );
  });

  it('turns a day range into the instants dayjs gave, also on days a clock changes', () => {
    for (const zone of zones)
      for (const start of days)
        for (const end of days) {
          expect(dayRangeToInstants([start, end], zone), `${zone} ${start}..${end}`).toEqual({
            from: dayjs.tz(start, zone).startOf('day').toISOString(),
            to: dayjs.tz(end, zone).endOf('day').toISOString(),
          });
        }
    expect(dayRangeToInstants(['2026-11-22', '2026-11-22'], 'Asia/Jakarta')).toEqual({
      from: '2026-11-21T17:00:00.000Z',
      to: '2026-11-22T16:59:59.999Z',
    });
    expect(dayRangeToInstants([null, null], 'Asia/Jakarta')).toEqual({ from: undefined, to: undefined });
  });

  it('counts both ends of a range', () => {
    expect(daysInRange(['2026-11-22', '2026-11-22'])).toBe(1);
    expect(daysInRange(['2026-10-23', '2026-11-22'])).toBe(31);
    expect(daysInRange(['2026-03-01', '2026-03-31'])).toBe(31);
    expect(daysInRange(['2026-11-22', null])).toBe(0);
  });

  it('says yesterday by the zone calendar, not by 24 hours', () => {
    // The words are the runtime's own (ICU); what is checked is which unit is chosen.
    const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto', style: 'narrow' });
    const now = new Date('2026-11-22T17:30:00Z'); // 00:30 on the 23rd in Jakarta
    expect(formatTimeAgo('2026-11-22T16:00:00Z', 'en', 'Asia/Jakarta', now)).toBe(relative.format(-1, 'day'));
    expect(formatTimeAgo('2026-11-22T16:00:00Z', 'en', 'UTC', now)).toBe(relative.format(-1, 'hour'));
    expect(formatTimeAgo('2026-11-22T17:29:30Z', 'en', 'UTC', now)).toBe(relative.format(0, 'second'));
    expect(formatTimeAgo('2026-11-10T10:00:00Z', 'en', 'Asia/Jakarta', now)).toBe('10 Nov');
    expect(formatTimeAgo('not a date', 'en', 'UTC', now)).toBe('');
  });
});
