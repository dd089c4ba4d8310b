import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { pushStateQueryKey, reportPushOffline, restorePushSubscription } from './push.queries';

/**
 * Keeps the session's push state in step while signed in: a browser subscribed earlier is
 * stored again for this session, and `pushnotif/offline` is posted whenever the app goes to
 * the background or closes. Renders nothing.
 */
export function PushSessionSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    void restorePushSubscription().catch(() => undefined);
    const goOffline = () => {
      if (document.visibilityState !== 'hidden') return;
      void reportPushOffline().then((result) => {
        // The server no longer pushes here (expired, or removed): the card offers activation again.
        if (result.ok && !result.data.pushEnabled) {
          void queryClient.invalidateQueries({ queryKey: pushStateQueryKey });
        }
      });
    };
    document.addEventListener('visibilitychange', goOffline);
    window.addEventListener('pagehide', goOffline);
    return () => {
      document.removeEventListener('visibilitychange', goOffline);
      window.removeEventListener('pagehide', goOffline);
    };
  }, [queryClient]);
  return null;
}
