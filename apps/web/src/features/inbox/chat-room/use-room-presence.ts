import { inboxTopics, type TicketSummary, typingPayload } from '@app/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { realtimeEvents } from '../../../shared/realtime-events';
import { markTicketRead, sendTyping } from './chat-room.queries';

/** A typing mark that is not renewed fades, in case the stop never arrives (tab closed, drop). */
const typingFadeMs = 8000;
/** The agent's typing is sent at most this often while they keep typing. */
const typingThrottleMs = 3000;
/** After this long without a key press the agent counts as no longer typing. */
const typingIdleMs = 4000;

/** The customer's name while they are typing in this ticket, or null. */
export function useCustomerTyping(ticketId: number): string | null {
  const [typingName, setTypingName] = useState<string | null>(null);
  useEffect(() => {
    let fade: ReturnType<typeof setTimeout> | undefined;
    const stopListening = realtimeEvents.on(inboxTopics.typing, (event) => {
      const parsed = typingPayload.safeParse(event.payload);
      if (!parsed.success || parsed.data.ticketId !== ticketId || parsed.data.who !== 'CUSTOMER') return;
      clearTimeout(fade);
      if (!parsed.data.typing) {
        setTypingName(null);
        return;
      }
      setTypingName(parsed.data.name);
      fade = setTimeout(() => setTypingName(null), typingFadeMs);
    });
    // A new customer message ends their typing.
    const stopOnMessage = realtimeEvents.on(inboxTopics.messageCreated, (event) => {
      const message = (event.payload as { message?: { ticketId?: number; direction?: string } }).message;
      if (message?.ticketId === ticketId && message.direction === 'INBOUND') {
        clearTimeout(fade);
        setTypingName(null);
      }
    });
    return () => {
      clearTimeout(fade);
      stopListening();
      stopOnMessage();
    };
  }, [ticketId]);
  return typingName;
}

/**
 * Tells the customer the agent is typing: once when typing starts, again every few
 * seconds while it goes on, and a stop after a pause or when the message is sent.
 */
export function useTypingSender(ticketId: number, enabled: boolean) {
  const lastSent = useRef(0);
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typing = useRef(false);

  const stop = useCallback(() => {
    clearTimeout(idle.current);
    if (!typing.current) return;
    typing.current = false;
    lastSent.current = 0;
    void sendTyping(ticketId, false);
  }, [ticketId]);

  const touch = useCallback(() => {
    if (!enabled) return;
    const now = Date.now();
    if (!typing.current || now - lastSent.current >= typingThrottleMs) {
      typing.current = true;
      lastSent.current = now;
      void sendTyping(ticketId, true);
    }
    clearTimeout(idle.current);
    idle.current = setTimeout(stop, typingIdleMs);
  }, [enabled, ticketId, stop]);

  useEffect(() => {
    if (!enabled) stop();
  }, [enabled, stop]);
  useEffect(() => stop, [stop]);

  return { touch, stop };
}

/**
 * Marks the ticket read while the room is open and the tab visible: when it opens with
 * unread messages, and each time a new customer message arrives. A hidden tab waits until
 * the agent comes back, so a message nobody saw is not reported as read.
 */
export function useMarkRead(
  ticketId: number,
  newestInboundId: number | null,
  unreadCount: number,
  onMarked: (ticket: TicketSummary) => void,
) {
  const onMarkedRef = useRef(onMarked);
  onMarkedRef.current = onMarked;
  const marked = useRef<number | null>(null);
  const shouldMark = newestInboundId !== null && (newestInboundId !== marked.current || unreadCount > 0);

  useEffect(() => {
    if (!shouldMark) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      marked.current = newestInboundId;
      void markTicketRead(ticketId).then((result) => {
        if (result.ok) onMarkedRef.current(result.data);
      });
    };
    const timer = setTimeout(mark, 400);
    const onVisible = () => mark();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ticketId, newestInboundId, shouldMark]);
}

/**
 * How often a visible room checks for messages it may have missed. The socket normally
 * brings everything; this covers a drop the shell does not report to features.
 */
const safetyCatchUpMs = 30_000;

/**
 * Runs the room's catch-up whenever messages may have been missed: the agent comes back
 * to the tab, the network comes back, and now and then while the room is on screen.
 */
export function useCatchUpTriggers(catchUp: () => Promise<void>) {
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void catchUp();
    };
    const onOnline = () => void catchUp();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void catchUp();
    }, safetyCatchUpMs);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [catchUp]);
}
