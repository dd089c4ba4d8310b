import { pageVisitDataMaxLength, pageVisitNameMaxLength } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { requestTiming } from '../../shared/request-timing';
import { useSession } from '../../shared/use-session';
import { startClientLog } from './client-log';
import { postClientLog, postPageVisit, trackerConfigQueryOptions } from './tracking.queries';

/**
 * The tracker of the signed-in shell, for the clients it is on for (the server says which):
 * each route change posts a page visit (pageName = the path, data_1 = the search string),
 * and while it is on the client log sends the request timing log every 60 s. Mount once.
 */
export function usePageVisitTracking(): void {
  const clientId = useSession()?.claims.clientId ?? '';
  const config = useQuery({ ...trackerConfigQueryOptions(clientId), enabled: clientId !== '' });
  const enabled = config.data?.enabled === true;
  const pathname = useLocation({ select: (location) => location.pathname });
  const searchRef = useRef('');
  searchRef.current = useLocation({ select: (location) => location.searchStr });
  // Remembers what was posted last, so a re-run of the effect (a remount, the client's
  // switch answering) does not count one visit twice.
  const postedRef = useRef<string | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const visit = `${clientId} ${pathname}`;
    if (postedRef.current === visit) return;
    postedRef.current = visit;
    const search = searchRef.current;
    void postPageVisit({
      pageName: pathname.slice(0, pageVisitNameMaxLength),
      ...(search ? { data_1: search.slice(0, pageVisitDataMaxLength) } : {}),
    });
  }, [enabled, clientId, pathname]);

  useEffect(() => {
    if (!enabled) return;
    return startClientLog({ recorder: requestTiming, post: postClientLog });
  }, [enabled]);
}
