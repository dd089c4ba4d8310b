import type { ChannelCode } from '@app/contracts';

/** One inbound customer message worth telling the agent about. */
export interface InboundNotice {
  roomId: string;
  ticketId: number;
  customerName: string;
  channel: ChannelCode;
  text: string;
}

/** What one desktop notification says: a chat room and how many messages came in it. */
export interface NotificationBatch {
  roomId: string;
  /** The ticket of the latest message, which is what clicking opens. */
  ticketId: number;
  customerName: string;
  channel: ChannelCode;
  count: number;
  lastText: string;
}

export interface BatcherTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const browserTimers: BatcherTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Gathers inbound messages per chat room over a window (core-inbox §9: 3000 ms) and
 * hands over one batch per room when the window closes. The window opens with a room's
 * first message and does not stretch with later ones, so a chatty customer still
 * produces a notification every few seconds rather than none until they pause.
 */
export function createNotificationBatcher(options: {
  windowMs: number;
  onFlush: (batch: NotificationBatch) => void;
  timers?: BatcherTimers;
}) {
  const timers = options.timers ?? browserTimers;
  const pending = new Map<string, { batch: NotificationBatch; handle: unknown }>();

  function flush(roomId: string) {
    const entry = pending.get(roomId);
    if (!entry) return;
    pending.delete(roomId);
    options.onFlush(entry.batch);
  }

  return {
    add(notice: InboundNotice): void {
      const entry = pending.get(notice.roomId);
      if (entry) {
        entry.batch = {
          ...entry.batch,
          ticketId: notice.ticketId,
          customerName: notice.customerName,
          count: entry.batch.count + 1,
          lastText: notice.text,
        };
        return;
      }
      const batch: NotificationBatch = {
        roomId: notice.roomId,
        ticketId: notice.ticketId,
        customerName: notice.customerName,
        channel: notice.channel,
        count: 1,
        lastText: notice.text,
      };
      const handle = timers.setTimeout(() => flush(notice.roomId), options.windowMs);
      pending.set(notice.roomId, { batch, handle });
    },
    /** Rooms with messages still waiting for their window to close. */
    pendingRooms(): string[] {
      return [...pending.keys()];
    },
    /** Drops everything waiting (sign-out, unmount): nothing is shown afterwards. */
    dispose(): void {
      for (const entry of pending.values()) timers.clearTimeout(entry.handle);
      pending.clear();
    },
  };
}

/**
 * Whether a batch deserves a desktop notification: only when the agent cannot see it
 * arrive, that is the page is hidden, or another chat room is open on screen.
 */
export function shouldNotify(batchTicketId: number, state: { hidden: boolean; openTicketId: number | null }) {
  if (state.hidden) return true;
  return state.openTicketId !== null && state.openTicketId !== batchTicketId;
}
