import { inboxLimits } from '@app/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationBatcher,
  type InboundNotice,
  type NotificationBatch,
  shouldNotify,
} from './notification-batcher';

const budi: InboundNotice = {
  roomId: '11111111-1111-4111-8111-111111111111',
  ticketId: 7,
  customerName: 'Budi',
  channel: 'WAP',
  text: 'Halo',
};
const sari: InboundNotice = {
  roomId: '22222222-2222-4222-8222-222222222222',
  ticketId: 9,
  customerName: 'Sari',
  channel: 'IGM',
  text: 'Permisi',
};

describe('notification batcher', () => {
  let flushed: NotificationBatch[];
  let batcher: ReturnType<typeof createNotificationBatcher>;

  beforeEach(() => {
    vi.useFakeTimers();
    flushed = [];
    batcher = createNotificationBatcher({
      windowMs: inboxLimits.notificationBatchMs,
      onFlush: (batch) => flushed.push(batch),
    });
  });

  afterEach(() => {
    batcher.dispose();
    vi.useRealTimers();
  });

  it('waits for the 3000 ms window before telling anything', () => {
    batcher.add(budi);
    vi.advanceTimersByTime(inboxLimits.notificationBatchMs - 1);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toHaveLength(1);
  });

  it('gathers the messages of one room into one notification with their count and the latest text', () => {
    batcher.add(budi);
    vi.advanceTimersByTime(1000);
    batcher.add({ ...budi, text: 'Pesanan saya belum sampai' });
    vi.advanceTimersByTime(1000);
    batcher.add({ ...budi, text: 'Tolong dicek ya' });
    vi.advanceTimersByTime(1000);
    expect(flushed).toEqual([
      {
        roomId: budi.roomId,
        ticketId: 7,
        customerName: 'Budi',
        channel: 'WAP',
        count: 3,
        lastText: 'Tolong dicek ya',
      },
    ]);
  });

  it('keeps rooms apart, each on its own window', () => {
    batcher.add(budi);
    vi.advanceTimersByTime(2000);
    batcher.add(sari);
    batcher.add(sari);
    vi.advanceTimersByTime(1000);
    expect(flushed.map((batch) => [batch.customerName, batch.count])).toEqual([['Budi', 1]]);
    vi.advanceTimersByTime(2000);
    expect(flushed.map((batch) => [batch.customerName, batch.count])).toEqual([
      ['Budi', 1],
      ['Sari', 2],
    ]);
  });

  it('does not stretch the window for a customer who keeps typing: a new window starts after a flush', () => {
    for (let second = 0; second < 6; second += 1) {
      batcher.add({ ...budi, text: `pesan ${second}` });
      vi.advanceTimersByTime(1000);
    }
    expect(flushed.map((batch) => batch.count)).toEqual([3, 3]);
  });

  it('opens the latest ticket of the room when messages moved to a new ticket', () => {
    batcher.add(budi);
    batcher.add({ ...budi, ticketId: 8 });
    vi.advanceTimersByTime(inboxLimits.notificationBatchMs);
    expect(flushed[0].ticketId).toBe(8);
  });

  it('shows nothing of what was pending after being disposed', () => {
    batcher.add(budi);
    expect(batcher.pendingRooms()).toEqual([budi.roomId]);
    batcher.dispose();
    vi.advanceTimersByTime(inboxLimits.notificationBatchMs * 2);
    expect(flushed).toEqual([]);
    expect(batcher.pendingRooms()).toEqual([]);
  });
});

describe('shouldNotify', () => {
  it('notifies when the page is hidden, whatever is open', () => {
    expect(shouldNotify(7, { hidden: true, openTicketId: 7 })).toBe(true);
    expect(shouldNotify(7, { hidden: true, openTicketId: null })).toBe(true);
  });

  it('notifies on a visible page only when another chat room is open', () => {
    expect(shouldNotify(7, { hidden: false, openTicketId: 9 })).toBe(true);
    expect(shouldNotify(7, { hidden: false, openTicketId: 7 })).toBe(false);
    expect(shouldNotify(7, { hidden: false, openTicketId: null })).toBe(false);
  });
});
