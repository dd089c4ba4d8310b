import type { TabCounts } from '@app/contracts';
import { useRef } from 'react';

/**
 * The tab counts of the list on screen, or the last ones seen while a newly chosen tab
 * loads: the counts are the same whichever tab fetched them, so they need not blink.
 */
export function useLastCounts(counts: TabCounts | undefined): TabCounts | null {
  const last = useRef<TabCounts | null>(null);
  if (counts) last.current = counts;
  return last.current;
}
