import type { MessageStatus, MessageView, SendMessageBody } from '@app/contracts';

/**
 * A message as the chat room holds it: the server's view, or the agent's own message
 * before the server has stored it (id null, shown at once as pending).
 */
export interface ChatMessage extends Omit<MessageView, 'id'> {
  id: number | null;
  /**
   * Stable identity for React and the virtualizer: the client id when there is one, so
   * a bubble keeps its row (and its measured height) when the server confirms it.
   */
  key: string;
}

/** The key of a message: its client id when it has one, else its server id. */
export function keyOf(message: Pick<MessageView, 'clientMessageId'> & { id: number | null }): string {
  return message.clientMessageId ?? `id:${message.id}`;
}

export function fromView(view: MessageView): ChatMessage {
  return { ...view, key: keyOf(view) };
}

const statusRank: Record<Exclude<MessageStatus, 'FAILED'>, number> = {
  PENDING: 0,
  SENT: 1,
  DELIVERED: 2,
  READ: 3,
};

/**
 * The status a message moves to when `incoming` is reported while it shows `current`.
 * Reports can arrive out of order (a socket event after a page fetched later), so a
 * message never moves back along pending → sent → delivered → read. A failure counts
 * unless the customer already has the message; a failed message moves on only when it
 * is sent again (pending) or the retry went through.
 */
export function nextStatus(current: MessageStatus, incoming: MessageStatus): MessageStatus {
  if (current === incoming) return current;
  if (incoming === 'FAILED') return current === 'DELIVERED' || current === 'READ' ? current : 'FAILED';
  if (current === 'FAILED') return incoming;
  return statusRank[incoming] > statusRank[current] ? incoming : current;
}

/** The server's view of a message we hold, without losing a status we already know is further on. */
function reconcile(existing: ChatMessage, incoming: MessageView): ChatMessage {
  const status = nextStatus(existing.status, incoming.status);
  return {
    ...incoming,
    key: existing.key,
    status,
    failureReason: status === 'FAILED' ? (incoming.failureReason ?? existing.failureReason) : null,
  };
}

/**
 * How many messages are stored (have an id). Unconfirmed ones are only ever a few, at the
 * end, so this counts from the end: a long room is never scanned for a live event.
 */
function storedCountOf(current: ReadonlyArray<ChatMessage>): number {
  let count = current.length;
  while (count > 0 && current[count - 1].id === null) count -= 1;
  return count;
}

/** Index of the confirmed message with this id (confirmed messages are sorted by id), or -1. */
function findById(confirmed: ReadonlyArray<ChatMessage>, id: number, length = confirmed.length): number {
  let low = 0;
  let high = length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = confirmed[middle].id!;
    if (value === id) return middle;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Where a new id goes among the confirmed messages to keep them sorted. */
function insertionPoint(confirmed: ReadonlyArray<ChatMessage>, id: number): number {
  let low = 0;
  let high = confirmed.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (confirmed[middle].id! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Merges server messages (a page, a catch-up, a live event, a send's answer) into the
 * room: confirmed messages stay sorted by id with no id twice, and the agent's own
 * unconfirmed messages stay at the end until the server's copy (same client id) replaces
 * them. Returns the same array when nothing changed, so React can skip the render.
 */
export function mergeMessages(
  current: ReadonlyArray<ChatMessage>,
  incoming: ReadonlyArray<MessageView>,
): ReadonlyArray<ChatMessage> {
  if (incoming.length === 0) return current;
  const split = storedCountOf(current);
  let unconfirmed = current.slice(split);
  const sorted = dedupeSorted([...incoming].sort((a, b) => a.id - b.id));
  const takeOptimistic = (view: MessageView): ChatMessage | null => {
    if (!view.clientMessageId) return null;
    const index = unconfirmed.findIndex((message) => message.clientMessageId === view.clientMessageId);
    if (index === -1) return null;
    const reconciled = reconcile(unconfirmed[index], view);
    unconfirmed = unconfirmed.filter((_, position) => position !== index);
    return reconciled;
  };

  // The common cases need no search and one copy: a page of older messages, or newer
  // ones (a live event, a catch-up, the answer to a send).
  if (split > 0 && sorted[sorted.length - 1].id < current[0].id!) return sorted.map(fromView).concat(current);
  if (split === 0 || sorted[0].id > current[split - 1].id!) {
    const appended = sorted.map((view) => takeOptimistic(view) ?? fromView(view));
    if (split === current.length) return current.concat(appended);
    return current.slice(0, split).concat(appended, unconfirmed);
  }

  // Overlapping ids: a copy the merge may change in place.
  const confirmed = current.slice(0, split);
  let changed = false;
  for (const view of sorted) {
    const optimistic = takeOptimistic(view);
    if (optimistic) {
      confirmed.splice(insertionPoint(confirmed, view.id), 0, optimistic);
      changed = true;
      continue;
    }
    const found = findById(confirmed, view.id);
    if (found !== -1) {
      const reconciled = reconcile(confirmed[found], view);
      if (!sameMessage(confirmed[found], reconciled)) {
        confirmed[found] = reconciled;
        changed = true;
      }
      continue;
    }
    confirmed.splice(insertionPoint(confirmed, view.id), 0, fromView(view));
    changed = true;
  }
  if (!changed) return current;
  return confirmed.concat(unconfirmed);
}

function dedupeSorted(sorted: ReadonlyArray<MessageView>): MessageView[] {
  return sorted.filter((view, index) => index === 0 || sorted[index - 1].id !== view.id);
}

/** True when a reconciled message would show exactly what is on screen already. */
function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  return (
    a.status === b.status &&
    a.failureReason === b.failureReason &&
    a.text === b.text &&
    a.attachments.length === b.attachments.length &&
    a.attachments.every((attachment, index) => attachment.url === b.attachments[index].url)
  );
}

/** Index of the stored message with this id, searching only the sorted, stored part. */
function indexOfId(current: ReadonlyArray<ChatMessage>, id: number): number {
  return findById(current, id, storedCountOf(current));
}

/**
 * Applies a status report (socket `inbox.message_updated`) to the message with that id.
 * Everyone who sees all chats hears every report of the client, so the lookup is a
 * binary search, not a scan of a long room.
 */
export function applyStatusUpdate(
  current: ReadonlyArray<ChatMessage>,
  update: { id: number; status: MessageStatus; failureReason: string | null },
): ReadonlyArray<ChatMessage> {
  const index = indexOfId(current, update.id);
  if (index === -1) return current;
  const message = current[index];
  const status = nextStatus(message.status, update.status);
  const failureReason = status === 'FAILED' ? (update.failureReason ?? message.failureReason) : null;
  if (status === message.status && failureReason === message.failureReason) return current;
  const next = [...current];
  next[index] = { ...message, status, failureReason };
  return next;
}

/** Drops a message the server deleted (an internal note or a failed message). */
export function removeMessage(current: ReadonlyArray<ChatMessage>, id: number): ReadonlyArray<ChatMessage> {
  const index = indexOfId(current, id);
  if (index === -1) return current;
  return [...current.slice(0, index), ...current.slice(index + 1)];
}

/**
 * Marks the agent's message by client id as failed (the send call was refused or never
 * answered) or as pending again (Retry pressed). These are the agent's own moves, so they
 * bypass the ordering rules of `nextStatus`.
 */
export function setLocalStatus(
  current: ReadonlyArray<ChatMessage>,
  clientMessageId: string,
  status: 'PENDING' | 'FAILED',
  failureReason: string | null = null,
): ReadonlyArray<ChatMessage> {
  const index = current.findLastIndex((message) => message.clientMessageId === clientMessageId);
  if (index === -1) return current;
  const message = current[index];
  // A send the server already moved past pending must not be pulled back by a late failure.
  if (status === 'FAILED' && message.status !== 'PENDING') return current;
  const next = [...current];
  next[index] = { ...message, status, failureReason: status === 'FAILED' ? failureReason : null };
  return next;
}

/** Adds the agent's own message before the server answers; a repeat of a client id is ignored. */
export function addOptimistic(
  current: ReadonlyArray<ChatMessage>,
  message: ChatMessage,
): ReadonlyArray<ChatMessage> {
  // Only the unconfirmed tail can hold it: a stored copy would have replaced it already.
  for (let index = current.length - 1; index >= 0 && current[index].id === null; index -= 1)
    if (current[index].key === message.key) return current;
  return current.concat(message);
}

/** The body that sends (or sends again, with the same client id) one of the agent's messages. */
export function sendBodyOf(message: ChatMessage): SendMessageBody {
  return {
    ticketId: message.ticketId,
    clientMessageId: message.clientMessageId ?? '',
    kind: message.kind,
    text: message.text,
    quotedMessageId: message.quoted?.id,
    attachmentIds: message.attachments.map((attachment) => attachment.id),
  };
}

/** The oldest stored message's id: the `before` of the next older page. */
export function oldestId(messages: ReadonlyArray<ChatMessage>): number | null {
  return messages.find((message) => message.id !== null)?.id ?? null;
}

/** The newest stored message's id: the `after` of a catch-up. */
export function newestId(messages: ReadonlyArray<ChatMessage>): number | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const id = messages[index].id;
    if (id !== null) return id;
  }
  return null;
}

/** A client message id that fits `sendMessageBody`'s pattern (letters, digits, - and _). */
export function newClientMessageId(): string {
  return crypto.randomUUID();
}

/**
 * Most messages a room holds at once. A long room is read as a window that moves with
 * the agent: scrolling far up drops the newest messages (loaded again on the way down),
 * so the list, its measurements and every merge stay small however long the room is.
 */
export const timelineWindowMax = 1000;

/**
 * Keeps the oldest `max` messages after older ones were prepended; true in `trimmed`
 * when newer messages were dropped. The agent's unconfirmed messages are never dropped:
 * while one is on its way the window simply stays longer.
 */
export function trimNewest(
  messages: ReadonlyArray<ChatMessage>,
  max: number = timelineWindowMax,
): { messages: ReadonlyArray<ChatMessage>; trimmed: boolean } {
  if (messages.length <= max || storedCountOf(messages) !== messages.length)
    return { messages, trimmed: false };
  return { messages: messages.slice(0, max), trimmed: true };
}

/** Keeps the newest `max` messages after newer ones were appended; true when older ones were dropped. */
export function trimOldest(
  messages: ReadonlyArray<ChatMessage>,
  max: number = timelineWindowMax,
): { messages: ReadonlyArray<ChatMessage>; trimmed: boolean } {
  if (messages.length <= max) return { messages, trimmed: false };
  return { messages: messages.slice(messages.length - max), trimmed: true };
}
