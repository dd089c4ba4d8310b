import {
  countsChangedPayload,
  inboxTopics,
  messageEventPayload,
  type TabCounts,
  type TicketSummary,
  ticketEventPayload,
} from '@app/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { realtimeEvents } from '../../../shared/realtime-events';
import { inboxKeys, type TicketListSource } from '../inbox.queries';
import type { ClientInboxScope } from '../shared/inbox-scope';
import { applyTicketToPages, type TicketPages } from './ticket-cache';
import { type TicketListParams, ticketMatchesParams } from './ticket-filters';

type ListKey = ReturnType<typeof inboxKeys.list>;

/** Puts a ticket's new state into every loaded list, each judged by its own filters. */
export function applyTicketToLists(queryClient: QueryClient, ticket: TicketSummary, userId: string): void {
  for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: inboxKeys.lists() })) {
    if (!data) continue;
    const [, , source, params] = key as unknown as ListKey;
    const matches = ticketMatchesParams(ticket, params as TicketListParams, {
      userId,
      openOnly: (source as TicketListSource) === 'chatRoom',
    });
    const next = applyTicketToPages(data, ticket, matches, params.sort);
    if (next !== data) queryClient.setQueryData(key, next);
  }
}

type CountsPayload = { all: number; unassigned: number; assignees: Record<string, number> };

/**
 * The counts an `inbox.counts_changed` event gives this user: their own when they are
 * among the assignees it touched, and the client's open and unassigned counts narrowed
 * the way the server narrows them for a list (no queue, no unassigned; not seeing every
 * chat, "all" is their own plus the queue).
 */
export function countsAfterEvent(
  previous: TabCounts,
  payload: CountsPayload,
  scope: ClientInboxScope,
): TabCounts {
  const mine = payload.assignees[scope.userId] ?? previous.mine;
  const unassigned = scope.seesQueue ? payload.unassigned : 0;
  return { mine, unassigned, all: scope.seesAll ? payload.all : mine + unassigned };
}

/** Writes new counts into the first page of every loaded list, where the tabs read them. */
function applyCountsToLists(queryClient: QueryClient, payload: CountsPayload, scope: ClientInboxScope): void {
  for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: inboxKeys.lists() })) {
    if (!data || data.pages.length === 0) continue;
    const [first, ...rest] = data.pages;
    queryClient.setQueryData<TicketPages>(key, {
      ...data,
      pages: [{ ...first, counts: countsAfterEvent(first.counts, payload, scope) }, ...rest],
    });
  }
}

/**
 * Keeps the loaded ticket lists current while a list screen is open: new tickets appear,
 * rows move on new messages, rows leave when they stop matching, and the tab counts
 * follow the server's pushes without a refetch. When the screen closes its lists are
 * dropped, so coming back starts from the server rather than from a list that missed
 * events in between.
 */
export function useTicketListRealtime(scope: ClientInboxScope): void {
  const queryClient = useQueryClient();
  const { userId, seesAll, seesQueue } = scope;
  useEffect(() => {
    const onTicket = (payload: Record<string, unknown>) => {
      const parsed = ticketEventPayload.safeParse(payload);
      if (parsed.success) applyTicketToLists(queryClient, parsed.data.ticket, userId);
    };
    const stops = [
      realtimeEvents.on(inboxTopics.ticketCreated, (event) => onTicket(event.payload)),
      realtimeEvents.on(inboxTopics.ticketUpdated, (event) => onTicket(event.payload)),
      realtimeEvents.on(inboxTopics.messageCreated, (event) => {
        const parsed = messageEventPayload.safeParse(event.payload);
        if (parsed.success) applyTicketToLists(queryClient, parsed.data.ticket, userId);
      }),
      realtimeEvents.on(inboxTopics.countsChanged, (event) => {
        const parsed = countsChangedPayload.safeParse(event.payload);
        if (parsed.success) applyCountsToLists(queryClient, parsed.data, { userId, seesAll, seesQueue });
      }),
      realtimeEvents.onResync(() => {
        void queryClient.resetQueries({ queryKey: inboxKeys.lists() });
      }),
      // Lists fetched before the first socket was ready may lack what came in between.
      realtimeEvents.onFirstConnect(() => {
        void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
      }),
    ];
    return () => {
      for (const stop of stops) stop();
      queryClient.removeQueries({ queryKey: inboxKeys.lists() });
    };
  }, [queryClient, userId, seesAll, seesQueue]);
}
