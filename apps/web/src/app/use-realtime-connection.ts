import { eventTopics } from '@app/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { meQueryKey } from '../features/identity/identity.queries';
import { api } from '../shared/api-client';
import { createRealtimeClient } from '../shared/realtime-client';
import { realtimeEvents } from '../shared/realtime-events';
import { decodeAccessToken, getSession } from '../shared/session';

function socketUrl(token: string, cursor: string | null): string {
  const url = new URL('/ws', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  if (cursor) url.searchParams.set('cursor', cursor);
  return url.toString();
}

/** Keeps the chat socket open while the signed-in shell is on screen. */
export function useRealtimeConnection(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let wasOpen = false;
    const client = createRealtimeClient({
      onStatus: (status) => {
        if (status !== 'open') return;
        if (wasOpen) realtimeEvents.publishReconnect();
        wasOpen = true;
      },
      url: socketUrl,
      getToken: () => getSession()?.accessToken ?? null,
      // Shares the api client's single refresh, so a socket and HTTP calls refused at the
      // same moment still cause one refresh only.
      refreshToken: (refused) => api.refreshAfter(refused),
      isTokenExpired: (token) => {
        const expiresAt = decodeAccessToken(token)?.expiresAt;
        return expiresAt != null && expiresAt <= Date.now();
      },
      onHello: ({ resumed }) => {
        if (!resumed) realtimeEvents.publishFirstConnect();
      },
      onSubscribed: (room) => realtimeEvents.publishRoomJoined(room),
      onResync: () => {
        void queryClient.invalidateQueries();
        realtimeEvents.publishResync();
      },
      onEvent: (event) => {
        if (event.topic === eventTopics.agentStatusChanged)
          void queryClient.invalidateQueries({ queryKey: meQueryKey });
        realtimeEvents.publish(event);
      },
    });
    client.start();
    realtimeEvents.attachRoomJoiner((room) => client.joinRoom(room));
    // After the attempts run out, a returning network is the moment to try again.
    const retryWhenOnline = () => client.start();
    window.addEventListener('online', retryWhenOnline);
    return () => {
      window.removeEventListener('online', retryWhenOnline);
      realtimeEvents.attachRoomJoiner(null);
      client.stop();
    };
  }, [queryClient]);
}
