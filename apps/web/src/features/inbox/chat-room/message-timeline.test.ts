import type { MessageView } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import {
  addOptimistic,
  applyStatusUpdate,
  type ChatMessage,
  fromView,
  mergeMessages,
  newClientMessageId,
  newestId,
  nextStatus,
  oldestId,
  removeMessage,
  sendBodyOf,
  setLocalStatus,
  trimNewest,
  trimOldest,
} from './message-timeline';

const roomId = '6f0c1c1e-8a55-4a55-9c55-0a0a0a0a0a0a';

function view(id: number, extra: Partial<MessageView> = {}): MessageView {
  return {
    id,
    roomId,
    ticketId: 7,
    kind: 'PublicMessage',
    direction: 'INBOUND',
    sender: { type: 'CUSTOMER', id: null, name: 'Budi' },
    text: `message ${id}`,
    attachments: [],
    quoted: null,
    status: 'DELIVERED',
    failureReason: null,
    clientMessageId: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
    ...extra,
  };
}

function optimistic(clientMessageId: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    ...fromView(view(0, { direction: 'OUTBOUND', sender: { type: 'AGENT', id: 'me', name: 'Sari' } })),
    id: null,
    key: clientMessageId,
    clientMessageId,
    status: 'PENDING',
    text: 'halo',
    ...extra,
  };
}

const ids = (messages: ReadonlyArray<ChatMessage>) => messages.map((message) => message.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('mergeMessages', () => {
  it('prepends an older page and appends a newer one, keeping ids in order', () => {
    let messages = mergeMessages(
      [],
      range(51, 100).map((id) => view(id)),
    );
    messages = mergeMessages(
      messages,
      range(1, 50).map((id) => view(id)),
    );
    messages = mergeMessages(messages, [view(101)]);
    expect(ids(messages)).toEqual(range(1, 101));
    expect(oldestId(messages)).toBe(1);
    expect(newestId(messages)).toBe(101);
  });

  it('never shows a message twice when pages and live events overlap', () => {
    let messages = mergeMessages(
      [],
      range(10, 20).map((id) => view(id)),
    );
    // A live event that arrived before the page, then a catch-up that repeats it.
    messages = mergeMessages(messages, [view(21)]);
    messages = mergeMessages(
      messages,
      range(15, 25).map((id) => view(id)),
    );
    messages = mergeMessages(messages, [view(22), view(22)]);
    messages = mergeMessages(
      messages,
      range(5, 12).map((id) => view(id)),
    );
    expect(ids(messages)).toEqual(range(5, 25));
  });

  it('puts a message that arrives late between the ones around it', () => {
    const messages = mergeMessages(mergeMessages([], [view(1), view(3)]), [view(2)]);
    expect(ids(messages)).toEqual([1, 2, 3]);
  });

  it('returns the same array when nothing changed, so nothing re-renders', () => {
    const messages = mergeMessages([], [view(1), view(2)]);
    expect(mergeMessages(messages, [view(2)])).toBe(messages);
    expect(mergeMessages(messages, [])).toBe(messages);
  });

  it('replaces my optimistic message with the server copy of the same client id, keeping its key', () => {
    const clientMessageId = newClientMessageId();
    let messages = mergeMessages([], [view(1)]);
    messages = addOptimistic(messages, optimistic(clientMessageId));
    // A customer message arrives while mine is still pending: mine stays last.
    messages = mergeMessages(messages, [view(2)]);
    expect(messages.map((message) => message.key)).toEqual(['id:1', 'id:2', clientMessageId]);

    const stored = view(3, {
      direction: 'OUTBOUND',
      clientMessageId,
      status: 'PENDING',
      sender: { type: 'AGENT', id: 'me', name: 'Sari' },
    });
    // The socket event and the send's answer both bring it: one bubble.
    messages = mergeMessages(messages, [stored]);
    messages = mergeMessages(messages, [{ ...stored, status: 'SENT' }]);
    expect(ids(messages)).toEqual([1, 2, 3]);
    expect(messages[2].key).toBe(clientMessageId);
    expect(messages[2].status).toBe('SENT');
  });

  it('keeps the further status when an older copy of a message arrives later', () => {
    let messages = mergeMessages([], [view(1, { direction: 'OUTBOUND', status: 'READ' })]);
    messages = mergeMessages(messages, [view(1, { direction: 'OUTBOUND', status: 'SENT' })]);
    expect(messages[0].status).toBe('READ');
  });

  it('keeps a hundred-thousand-message room in order through live events and status reports', () => {
    const big = mergeMessages(
      [],
      range(1, 100_000).map((id) => view(id)),
    );
    const next = mergeMessages(big, [view(100_001)]);
    expect(next.length).toBe(100_001);
    expect(applyStatusUpdate(next, { id: 50_000, status: 'READ', failureReason: null })[49_999].status).toBe(
      'READ',
    );
  });
});

describe('nextStatus', () => {
  it('only moves forward along pending, sent, delivered, read', () => {
    expect(nextStatus('PENDING', 'SENT')).toBe('SENT');
    expect(nextStatus('SENT', 'READ')).toBe('READ');
    expect(nextStatus('DELIVERED', 'SENT')).toBe('DELIVERED');
    expect(nextStatus('READ', 'DELIVERED')).toBe('READ');
    expect(nextStatus('READ', 'PENDING')).toBe('READ');
  });

  it('takes a failure unless the customer already has the message', () => {
    expect(nextStatus('PENDING', 'FAILED')).toBe('FAILED');
    expect(nextStatus('SENT', 'FAILED')).toBe('FAILED');
    expect(nextStatus('DELIVERED', 'FAILED')).toBe('DELIVERED');
  });

  it('lets a failed message start again or succeed after a retry', () => {
    expect(nextStatus('FAILED', 'PENDING')).toBe('PENDING');
    expect(nextStatus('FAILED', 'SENT')).toBe('SENT');
  });
});

describe('status of my messages', () => {
  it('applies socket status reports by id, keeping the failure reason only while failed', () => {
    let messages = mergeMessages([], [view(1, { direction: 'OUTBOUND', status: 'PENDING' })]);
    messages = applyStatusUpdate(messages, { id: 1, status: 'FAILED', failureReason: 'Recipient blocked' });
    expect(messages[0]).toMatchObject({ status: 'FAILED', failureReason: 'Recipient blocked' });
    messages = applyStatusUpdate(messages, { id: 1, status: 'PENDING', failureReason: null });
    expect(messages[0]).toMatchObject({ status: 'PENDING', failureReason: null });
    messages = applyStatusUpdate(messages, { id: 1, status: 'DELIVERED', failureReason: null });
    expect(messages[0].status).toBe('DELIVERED');
    // A report for a message not in this room changes nothing.
    expect(applyStatusUpdate(messages, { id: 99, status: 'READ', failureReason: null })).toBe(messages);
  });

  it('marks a refused send as failed and a retry as pending again, with the same client id', () => {
    const clientMessageId = newClientMessageId();
    let messages = addOptimistic([], optimistic(clientMessageId));
    messages = setLocalStatus(messages, clientMessageId, 'FAILED', 'Chat expired');
    expect(messages[0]).toMatchObject({ status: 'FAILED', failureReason: 'Chat expired' });
    messages = setLocalStatus(messages, clientMessageId, 'PENDING');
    expect(messages[0]).toMatchObject({ status: 'PENDING', failureReason: null });
    expect(sendBodyOf(messages[0]).clientMessageId).toBe(clientMessageId);
  });

  it('does not let a late local failure pull back a message the server already sent', () => {
    const clientMessageId = newClientMessageId();
    let messages = addOptimistic([], optimistic(clientMessageId));
    messages = mergeMessages(messages, [view(5, { direction: 'OUTBOUND', clientMessageId, status: 'SENT' })]);
    expect(setLocalStatus(messages, clientMessageId, 'FAILED', 'timeout')).toBe(messages);
  });

  it('ignores a second optimistic message with the same client id', () => {
    const clientMessageId = newClientMessageId();
    const once = addOptimistic([], optimistic(clientMessageId));
    expect(addOptimistic(once, optimistic(clientMessageId))).toBe(once);
  });

  it('builds the send body from the message, quote and files included', () => {
    const clientMessageId = newClientMessageId();
    const message = optimistic(clientMessageId, {
      kind: 'InternalMessage',
      quoted: { id: 4, text: 'kapan dikirim?', senderName: 'Budi' },
      attachments: [
        {
          id: '11111111-2222-4333-8444-555555555555',
          name: 'resi.pdf',
          mime: 'application/pdf',
          size: 1000,
          type: 'document',
          url: '/api/media/x',
        },
      ],
    });
    expect(sendBodyOf(message)).toEqual({
      ticketId: 7,
      clientMessageId,
      kind: 'InternalMessage',
      text: 'halo',
      quotedMessageId: 4,
      attachmentIds: ['11111111-2222-4333-8444-555555555555'],
    });
    expect(clientMessageId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });

  it('removes a deleted message', () => {
    const messages = mergeMessages([], [view(1), view(2), view(3)]);
    expect(ids(removeMessage(messages, 2))).toEqual([1, 3]);
    expect(removeMessage(messages, 9)).toBe(messages);
  });
});

describe('the window of a long room', () => {
  const stored = (from: number, to: number) =>
    mergeMessages(
      [],
      range(from, to).map((id) => view(id)),
    );

  it('drops the newest messages after older pages pushed the room past its window', () => {
    const { messages, trimmed } = trimNewest(stored(1, 1200), 1000);
    expect(trimmed).toBe(true);
    expect(ids(messages)).toEqual(range(1, 1000));
    expect(trimNewest(stored(1, 10), 1000).trimmed).toBe(false);
  });

  it('never drops the agent messages that are still on their way', () => {
    const withPending = addOptimistic(stored(1, 1200), optimistic(newClientMessageId()));
    expect(trimNewest(withPending, 1000)).toEqual({ messages: withPending, trimmed: false });
  });

  it('drops the oldest messages after newer pages pushed the room past its window', () => {
    const { messages, trimmed } = trimOldest(stored(1, 1200), 1000);
    expect(trimmed).toBe(true);
    expect(ids(messages)).toEqual(range(201, 1200));
  });
});
