import {
  type AttachmentView,
  type ErrorObject,
  inboxTopics,
  type MessageKind,
  messageDeletedPayload,
  messageEventPayload,
  messageUpdatedPayload,
  type TicketDetailResponse,
} from '@app/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { realtimeEvents } from '../../../shared/realtime-events';
import { chatRoomKeys, fetchChatPage, sendMessage } from './chat-room.queries';
import {
  addOptimistic,
  applyStatusUpdate,
  type ChatMessage,
  fromView,
  mergeMessages,
  newClientMessageId,
  newestId,
  oldestId,
  removeMessage,
  sendBodyOf,
  setLocalStatus,
  trimNewest,
  trimOldest,
} from './message-timeline';
import { useCatchUpTriggers } from './use-room-presence';

/** What the composer hands over to send. */
export interface OutgoingDraft {
  kind: MessageKind;
  text: string;
  attachments: AttachmentView[];
  quoted: ChatMessage | null;
}

/** A catch-up asks for this many messages per call; a long outage takes several calls. */
const catchUpPageSize = 200;
/** Upper bound of catch-up calls in one go, so a runaway answer cannot loop forever. */
const catchUpMaxPages = 25;
/**
 * The messages of one ticket's room: opens at the newest page, loads older pages as the
 * agent scrolls up (and newer ones again when the window had moved away from the end),
 * follows the ticket's socket room, catches up after a resync, a return to the tab or the
 * network coming back, and sends the agent's messages optimistically with a client id.
 */
export function useChatTimeline(options: {
  ticketId: number;
  roomId: string | undefined;
  sender: { id: string; name: string };
  describeError: (error: ErrorObject) => string;
}) {
  const { ticketId } = options;
  const queryClient = useQueryClient();
  const messagesRef = useRef<ReadonlyArray<ChatMessage>>([]);
  const [messages, setMessages] = useState<ReadonlyArray<ChatMessage>>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [loadError, setLoadError] = useState<ErrorObject | null>(null);
  const [hasOlder, setHasOlder] = useState(false);
  /** True when the window stops short of the newest message (the agent scrolled far up). */
  const [hasNewer, setHasNewer] = useState(false);
  const hasNewerRef = useRef(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [loadingNewer, setLoadingNewer] = useState(false);
  /** Messages that arrived while the window was away from the end: the jump button counts them. */
  const [missedBelow, setMissedBelow] = useState(0);
  const busy = useRef({ older: false, newer: false, catchUp: false, catchUpAgain: false });
  /**
   * The newest id up to which the window is known complete because a fetch said so. Live
   * events may show newer messages with a gap before them (one stored before the room was
   * joined, say), so a catch-up starts from here rather than from the newest shown.
   */
  const fetchedThroughRef = useRef<number | null>(null);
  const noteFetched = useCallback((views: ReadonlyArray<{ id: number }>) => {
    const last = views[views.length - 1];
    if (last && (fetchedThroughRef.current === null || last.id > fetchedThroughRef.current))
      fetchedThroughRef.current = last.id;
  }, []);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  /** The ref is the truth for async work; state follows it for rendering. */
  const update = useCallback(
    (change: (current: ReadonlyArray<ChatMessage>) => ReadonlyArray<ChatMessage>) => {
      const next = change(messagesRef.current);
      if (next === messagesRef.current) return;
      messagesRef.current = next;
      setMessages(next);
    },
    [],
  );

  /** Adds messages at the live end, dropping the oldest when the window is full. */
  const appendLive = useCallback(
    (views: Parameters<typeof mergeMessages>[1]) => {
      let trimmed = false;
      update((current) => {
        const result = trimOldest(mergeMessages(current, views));
        trimmed = result.trimmed;
        return result.messages;
      });
      if (trimmed) setHasOlder(true);
    },
    [update],
  );

  const markNewer = useCallback((value: boolean) => {
    hasNewerRef.current = value;
    setHasNewer(value);
    if (!value) setMissedBelow(0);
  }, []);

  /** The newest page's load while it runs: a catch-up waits for it instead of asking again. */
  const latestLoadRef = useRef<Promise<void> | null>(null);

  /** Shows the newest page: on opening, and when jumping back from far up. */
  const readLatest = useCallback(
    async (replace: boolean) => {
      setStatus((current) => (current === 'ready' ? current : 'loading'));
      const page = await fetchChatPage({ ticketId });
      if (!page.ok) {
        setLoadError(page.error);
        setStatus((current) => (current === 'ready' ? current : 'error'));
        return;
      }
      const unconfirmed = messagesRef.current.filter((message) => message.id === null);
      noteFetched(page.data.messages);
      update((current) =>
        replace ? mergeMessages(unconfirmed, page.data.messages) : mergeMessages(current, page.data.messages),
      );
      if (replace || oldestId(messagesRef.current) === (page.data.messages[0]?.id ?? null))
        setHasOlder(page.data.hasMore);
      markNewer(false);
      setLoadError(null);
      setStatus('ready');
    },
    [ticketId, update, markNewer, noteFetched],
  );

  const loadLatest = useCallback(
    (replace: boolean) => {
      const load = readLatest(replace).finally(() => {
        if (latestLoadRef.current === load) latestLoadRef.current = null;
      });
      latestLoadRef.current = load;
      return load;
    },
    [readLatest],
  );

  /**
   * Fetches what is newer than the window is known to hold (or the newest page when nothing
   * is). On opening, the room's join is confirmed while the first page is still on its way:
   * the catch-up then waits for that page and asks only for what came after it, instead of
   * reading the newest page a second time.
   */
  const catchUpOnce = useCallback(async () => {
    const loading = latestLoadRef.current;
    // Should that load fail, nothing is known yet and the newest page is asked for again below.
    if (fetchedThroughRef.current === null && loading) await loading.catch(() => undefined);
    const after = fetchedThroughRef.current;
    if (after === null) {
      await loadLatest(false);
      return;
    }
    let cursor = after;
    for (let call = 0; call < catchUpMaxPages; call += 1) {
      const page = await fetchChatPage({ ticketId, after: cursor, limit: catchUpPageSize });
      if (!page.ok || hasNewerRef.current) return;
      appendLive(page.data.messages);
      noteFetched(page.data.messages);
      const last = page.data.messages[page.data.messages.length - 1];
      if (!page.data.hasMore || !last) return;
      cursor = last.id;
    }
  }, [ticketId, appendLive, loadLatest, noteFetched]);

  /**
   * Catches up; a call while one is running runs once more after it, since the running
   * fetch may have started before the moment the new call stands for.
   */
  const catchUp = useCallback(async () => {
    // Away from the end the window is not live; loading newer pages covers it.
    if (hasNewerRef.current) return;
    if (busy.current.catchUp) {
      busy.current.catchUpAgain = true;
      return;
    }
    busy.current.catchUp = true;
    try {
      do {
        busy.current.catchUpAgain = false;
        await catchUpOnce();
      } while (busy.current.catchUpAgain && !hasNewerRef.current);
    } finally {
      busy.current.catchUp = false;
    }
  }, [catchUpOnce]);

  const loadOlder = useCallback(async () => {
    const before = oldestId(messagesRef.current);
    if (busy.current.older || !hasOlder || before === null) return;
    busy.current.older = true;
    setLoadingOlder(true);
    const page = await fetchChatPage({ ticketId, before });
    busy.current.older = false;
    setLoadingOlder(false);
    if (!page.ok) return;
    let trimmed = false;
    update((current) => {
      const result = trimNewest(mergeMessages(current, page.data.messages));
      trimmed = result.trimmed;
      return result.messages;
    });
    setHasOlder(page.data.hasMore);
    if (trimmed) markNewer(true);
  }, [ticketId, hasOlder, update, markNewer]);

  const loadNewer = useCallback(async () => {
    const after = newestId(messagesRef.current);
    if (busy.current.newer || !hasNewerRef.current || after === null) return;
    busy.current.newer = true;
    setLoadingNewer(true);
    const page = await fetchChatPage({ ticketId, after });
    busy.current.newer = false;
    setLoadingNewer(false);
    if (!page.ok) return;
    appendLive(page.data.messages);
    noteFetched(page.data.messages);
    if (!page.data.hasMore) markNewer(false);
  }, [ticketId, appendLive, markNewer, noteFetched]);

  useEffect(() => {
    void loadLatest(false);
  }, [loadLatest]);

  // The ticket's own room brings its message events even when it is in no list of ours.
  useEffect(() => {
    const room = `ticket:${ticketId}`;
    const leave = realtimeEvents.joinRoom(room);
    const stopCreated = realtimeEvents.on(inboxTopics.messageCreated, (event) => {
      const parsed = messageEventPayload.safeParse(event.payload);
      if (!parsed.success) return;
      const { message, ticket } = parsed.data;
      // The page is the whole room (every chat of this customer on this account).
      const roomId = optionsRef.current.roomId;
      if (message.ticketId !== ticketId && (!roomId || message.roomId !== roomId)) return;
      if (hasNewerRef.current) setMissedBelow((count) => count + 1);
      else appendLive([message]);
      if (ticket.id === ticketId)
        queryClient.setQueryData<TicketDetailResponse>(chatRoomKeys.detail(ticketId), (detail) =>
          detail ? { ...detail, ticket } : detail,
        );
    });
    const stopUpdated = realtimeEvents.on(inboxTopics.messageUpdated, (event) => {
      const parsed = messageUpdatedPayload.safeParse(event.payload);
      if (parsed.success) update((current) => applyStatusUpdate(current, parsed.data));
    });
    const stopDeleted = realtimeEvents.on(inboxTopics.messageDeleted, (event) => {
      const parsed = messageDeletedPayload.safeParse(event.payload);
      if (parsed.success) update((current) => removeMessage(current, parsed.data.id));
    });
    const stopResync = realtimeEvents.onResync(() => void catchUp());
    // Once the room is confirmed (on opening, and again after every reconnect) its events
    // arrive; what was stored before that moment is fetched.
    const stopJoined = realtimeEvents.onRoomJoined(room, () => void catchUp());
    return () => {
      stopCreated();
      stopUpdated();
      stopDeleted();
      stopResync();
      stopJoined();
      leave();
    };
  }, [ticketId, update, appendLive, catchUp, queryClient]);

  useCatchUpTriggers(catchUp);

  const deliver = useCallback(
    async (message: ChatMessage) => {
      const result = await sendMessage(sendBodyOf(message));
      if (result.ok) update((current) => mergeMessages(current, [result.data]));
      else
        update((current) =>
          setLocalStatus(
            current,
            message.clientMessageId!,
            'FAILED',
            optionsRef.current.describeError(result.error),
          ),
        );
    },
    [update],
  );

  /**
   * Shows the message at once as pending, at the end of the room (coming back there first
   * if the agent had scrolled far up), then sends it in the background.
   */
  const send = useCallback(
    async (draft: OutgoingDraft) => {
      if (hasNewerRef.current) await loadLatest(true);
      const { sender, roomId } = optionsRef.current;
      const clientMessageId = newClientMessageId();
      const message: ChatMessage = {
        ...fromView({
          id: 0,
          roomId: roomId ?? '',
          ticketId,
          kind: draft.kind,
          direction: 'OUTBOUND',
          sender: { type: 'AGENT', id: sender.id, name: sender.name },
          text: draft.text,
          attachments: draft.attachments,
          quoted:
            draft.quoted?.id != null
              ? { id: draft.quoted.id, text: draft.quoted.text, senderName: draft.quoted.sender.name }
              : null,
          status: 'PENDING',
          failureReason: null,
          clientMessageId,
          createdAt: new Date().toISOString(),
        }),
        id: null,
      };
      update((current) => addOptimistic(current, message));
      void deliver(message);
    },
    [ticketId, update, deliver, loadLatest],
  );

  /** Sends a failed message again with the same client id, so the server never doubles it. */
  const retry = useCallback(
    (message: ChatMessage) => {
      if (!message.clientMessageId) return;
      update((current) => setLocalStatus(current, message.clientMessageId!, 'PENDING'));
      void deliver({ ...message, status: 'PENDING' });
    },
    [update, deliver],
  );

  return {
    messages,
    status,
    loadError,
    hasOlder,
    hasNewer,
    loadingOlder,
    loadingNewer,
    missedBelow,
    loadOlder,
    loadNewer,
    jumpToLatest: () => loadLatest(true),
    reload: () => loadLatest(false),
    send,
    retry,
  };
}
