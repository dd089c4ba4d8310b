import { canRead, channels, inboxLimits, inboxTopics, messageEventPayload } from '@app/contracts';
import { useRouter } from '@tanstack/react-router';
import i18next from 'i18next';
import { useEffect, useRef } from 'react';
import { realtimeEvents } from '../../../shared/realtime-events';
import { useSession } from '../../../shared/use-session';
import { chatRoomHref } from '../shared/chat-room-link';
import { inboxScopeOfSession, isMyConcern } from '../shared/inbox-scope';
import { createNotificationBatcher, type NotificationBatch, shouldNotify } from './notification-batcher';

const chatRoomPath = '/customer-service/inbox-chatroom';
const bodyMax = 140;

/** The ticket whose chat room is on screen, as the router read it from the address. */
function openTicketId(location: { pathname: string; search: Record<string, unknown> }): number | null {
  if (location.pathname !== chatRoomPath) return null;
  const value = Number(location.search.referenceId);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** The desktop notification's body: the latest words, or a note that a file came. */
function bodyOf(batch: NotificationBatch): string {
  const text = batch.lastText.trim();
  if (!text) return i18next.t('inbox.notifications.attachment');
  return text.length > bodyMax ? `${text.slice(0, bodyMax - 1)}…` : text;
}

/**
 * Desktop notifications for new customer messages in the chats that are the user's to
 * answer (assigned to them, or waiting in their queue), batched per chat room over
 * 3000 ms: "3 pesan baru dari Budi (WhatsApp)". Shown only when the page is hidden or
 * another chat room is open; clicking brings the window forward and opens the room.
 * Permission is asked from the inbox screen, never here on load.
 */
export function useInboxNotifications(): void {
  const session = useSession();
  const router = useRouter();
  const routerRef = useRef(router);
  routerRef.current = router;

  const scope = session ? inboxScopeOfSession(session) : null;
  const enabled = session !== null && canRead(session.ability, 'CUSTOMER_SERVICE_INBOX');
  const userId = scope?.userId ?? null;
  const seesQueue = scope?.seesQueue ?? false;
  const seesAll = scope?.seesAll ?? false;

  useEffect(() => {
    if (!enabled || !userId || typeof window.Notification === 'undefined') return;
    const scopeNow = { userId, seesQueue, seesAll };

    const show = (batch: NotificationBatch) => {
      if (Notification.permission !== 'granted') return;
      const openTicket = openTicketId(routerRef.current.state.location);
      if (!shouldNotify(batch.ticketId, { hidden: document.hidden, openTicketId: openTicket })) return;
      const notification = new Notification(
        i18next.t('inbox.notifications.title', {
          count: batch.count,
          name: batch.customerName,
          channel: channels[batch.channel].name,
        }),
        { body: bodyOf(batch), tag: `inbox-room-${batch.roomId}` },
      );
      notification.onclick = () => {
        window.focus();
        void routerRef.current.navigate({ href: chatRoomHref(batch.ticketId) });
        notification.close();
      };
    };

    const batcher = createNotificationBatcher({ windowMs: inboxLimits.notificationBatchMs, onFlush: show });
    const stop = realtimeEvents.on(inboxTopics.messageCreated, (event) => {
      const parsed = messageEventPayload.safeParse(event.payload);
      if (!parsed.success) return;
      const { message, ticket } = parsed.data;
      if (message.direction !== 'INBOUND' || message.kind !== 'PublicMessage') return;
      if (!isMyConcern(scopeNow, ticket)) return;
      batcher.add({
        roomId: ticket.roomId,
        ticketId: ticket.id,
        customerName: ticket.customer.name,
        channel: ticket.mediaPlatform,
        text: message.text,
      });
    });
    return () => {
      stop();
      batcher.dispose();
    };
  }, [enabled, userId, seesQueue, seesAll]);
}
