import { useEffect, useState } from 'react';

/**
 * Seconds left before something may be done again (a one-time code resent, say); counts
 * down once a second while above zero. The second value starts a countdown of so many seconds.
 */
export function useCountdown(): [number, (seconds: number) => void] {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until, now]);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return [
    left,
    (seconds) => {
      setNow(Date.now());
      setUntil(Date.now() + seconds * 1000);
    },
  ];
}
