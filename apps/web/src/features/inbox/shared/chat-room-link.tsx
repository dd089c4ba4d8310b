import { useNavigate } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

/**
 * The chat room's address, written the way the spec gives it (`?referenceId=42`). The
 * router would quote a string id (`%2242%22`), which is no address to share.
 */
export function chatRoomHref(ticketId: number): string {
  return `/customer-service/inbox-chatroom?referenceId=${ticketId}`;
}

/** True for clicks the browser should handle itself: a new tab or window. */
export function isModifiedClick(event: MouseEvent): boolean {
  return event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0;
}

/**
 * A link to a ticket's chat room: a plain anchor (cheap in long lists, opens in a new
 * tab on a modified click) that navigates inside the app on a plain one.
 */
export function ChatRoomLink({
  ticketId,
  onClick,
  ...props
}: { ticketId: number } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useNavigate();
  const href = chatRoomHref(ticketId);
  return (
    <a
      {...props}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || isModifiedClick(event)) return;
        event.preventDefault();
        void navigate({ href });
      }}
    />
  );
}
