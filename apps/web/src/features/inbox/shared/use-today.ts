import { useEffect, useState } from 'react';
import { type DayString, dayIn, nextDayStart } from './inbox-time';

// Apart from inbox-time.ts, so that it loads with the screens that filter by day, not with the inbox.

/**
 * Today in the zone, `YYYY-MM-DD`, which turns at the zone's midnight while the screen stays
 * open, and is checked again when the tab comes back (a sleeping laptop's timers wait).
 */
export function useToday(zone: string): DayString {
  const [today, setToday] = useState(() => dayIn(zone));
  useEffect(() => {
    const check = () => setToday(dayIn(zone));
    check();
    // A little past midnight, so that the clock reads the new day when the timer fires.
    const timer = setTimeout(check, Math.max(0, nextDayStart(today, zone) - Date.now()) + 250);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [zone, today]);
  return today;
}
