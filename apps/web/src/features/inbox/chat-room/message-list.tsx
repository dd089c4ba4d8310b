import { ActionIcon, Center, Indicator, Loader, Text, Tooltip } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayKeyOf, dayLabelOf, relativeDayOf } from './chat-dates';
import classes from './chat-room.module.css';
import { type BubbleOptions, MessageBubble } from './message-bubble';
import type { ChatMessage } from './message-timeline';

/** Messages of the same sender closer than this share one group (the name is shown once). */
const groupWindowMs = 5 * 60 * 1000;
/** Closer than this to the top, the next older page is fetched. */
const loadOlderWithinRows = 4;
/** Space above the first message, where "start of the conversation" or the loader shows. */
const topPadding = 44;
/** Space below the last message, where the loader of newer pages shows. */
const bottomPadding = 28;

/** Day keys are costly to compute and messages are immutable: one per message object. */
const dayKeys = new WeakMap<ChatMessage, string>();
function dayOf(message: ChatMessage, timeZone: string): string {
  let key = dayKeys.get(message);
  if (key === undefined) {
    key = dayKeyOf(message.createdAt, timeZone);
    dayKeys.set(message, key);
  }
  return key;
}

function isGrouped(previous: ChatMessage | undefined, message: ChatMessage, sameDay: boolean): boolean {
  if (!previous || !sameDay || message.sender.type === 'SYSTEM') return false;
  return (
    previous.sender.type === message.sender.type &&
    previous.sender.id === message.sender.id &&
    previous.kind === message.kind &&
    previous.direction === message.direction &&
    Date.parse(message.createdAt) - Date.parse(previous.createdAt) < groupWindowMs
  );
}

interface MessageRowProps {
  message: ChatMessage;
  previous: ChatMessage | undefined;
  index: number;
  start: number;
  measureElement: (node: HTMLDivElement | null) => void;
  options: BubbleOptions;
}

/**
 * One row: the day separator when the day changes, then the bubble. Memoized so that a
 * scroll step renders only the rows it mounts, and a prepended page or a measured row
 * above only moves the others (their props differ by `index` and `start` alone).
 */
const MessageRow = memo(function MessageRow({
  message,
  previous,
  index,
  start,
  measureElement,
  options,
}: MessageRowProps) {
  const { timeZone, language, t } = options;
  const day = dayOf(message, timeZone);
  const sameDay = previous !== undefined && dayOf(previous, timeZone) === day;
  const relative = sameDay ? null : relativeDayOf(day, timeZone);
  const grouped = isGrouped(previous, message, sameDay);
  return (
    <div
      data-index={index}
      ref={measureElement}
      className={classes.row}
      style={{ transform: `translateY(${start}px)` }}
    >
      {sameDay ? null : (
        <div className={classes.daySeparator}>
          <span className={classes.dayLabel}>
            {relative ? t(`chatRoom.day.${relative}`) : dayLabelOf(day, language)}
          </span>
        </div>
      )}
      <div className={grouped || !sameDay ? undefined : classes.rowGap}>
        <MessageBubble message={message} grouped={grouped} options={options} />
      </div>
    </div>
  );
});

/** The loader of older pages, or the start of the conversation, above the first row. */
const ListTop = memo(function ListTop({ loading, atStart }: { loading: boolean; atStart: boolean }) {
  const { t } = useTranslation();
  return (
    <div style={{ position: 'absolute', top: 0, left: 0, right: 0, height: topPadding }}>
      <Center h="100%">
        {loading ? (
          <Loader size="xs" />
        ) : atStart ? (
          <Text size="xs" c="dimmed">
            {t('chatRoom.conversationStart')}
          </Text>
        ) : null}
      </Center>
    </div>
  );
});

/**
 * The jump button with its count of missed messages. Memoized: while the agent scrolls
 * up it stays on screen, and its tooltip and indicator are costly to render every frame.
 */
const JumpToLatest = memo(function JumpToLatest({
  missedBelow,
  onJump,
}: {
  missedBelow: number;
  onJump: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={classes.jumpToEnd}>
      <Indicator label={missedBelow > 99 ? '99+' : missedBelow} disabled={missedBelow === 0} size={16}>
        <Tooltip label={t('chatRoom.jumpToLatest')} withArrow position="left">
          <ActionIcon
            radius="xl"
            size="lg"
            variant="default"
            aria-label={t('chatRoom.jumpToLatest')}
            onClick={onJump}
            data-testid="jump-to-latest"
          >
            <IconArrowDown size={18} />
          </ActionIcon>
        </Tooltip>
      </Indicator>
    </div>
  );
});

export interface MessageListProps {
  messages: ReadonlyArray<ChatMessage>;
  ready: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** The window stops short of the newest message; scrolling down loads newer pages. */
  hasNewer: boolean;
  loadingNewer: boolean;
  onLoadNewer: () => void;
  /** Messages that arrived while the window was away from the end. */
  missedBelow: number;
  /** Brings the newest page back when the window had moved away from it. */
  onJumpToLatest: () => Promise<void>;
  showAgentName: boolean;
  language: string;
  timeZone: string;
  onReply: ((message: ChatMessage) => void) | null;
  onRetry: ((message: ChatMessage) => void) | null;
  canRetryPublic: boolean;
  typingName: string | null;
  /** Changes when the agent sends: the list jumps to the end to show their message. */
  followSignal: number;
}

/**
 * The conversation, virtualized: only the rows on screen exist in the page, so a room
 * of a hundred thousand messages scrolls like one of fifty. Rows measure themselves
 * (bubbles differ in height); older pages are prepended without moving what the agent
 * is reading, and new messages are followed only when the agent is at the end.
 */
export function MessageList(props: MessageListProps) {
  const { messages, ready, hasOlder, loadingOlder, onLoadOlder, hasNewer, loadingNewer, onLoadNewer } = props;
  const { timeZone, language } = props;
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [atEnd, setAtEnd] = useState(true);
  const startedAtEnd = useRef(false);
  // Older pages load only once the list has settled at the end; before that the top rows
  // are on screen for a frame and would fetch a page nobody scrolled to.
  const [armed, setArmed] = useState(false);
  // New messages are followed only at the live end. The value of the render before counts:
  // the render that appends a newer page is also the one that may reach the live end, and
  // that page must not pull the agent down past what they are reading.
  const followRef = useRef(!hasNewer);
  useEffect(() => {
    followRef.current = !hasNewer;
  }, [hasNewer]);

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 68,
    getItemKey: (index) => messages[index].key,
    overscan: 6,
    paddingStart: topPadding,
    paddingEnd: bottomPadding,
    anchorTo: 'end',
    followOnAppend: followRef.current,
    scrollEndThreshold: 64,
  });

  // Open at the newest message, once the first page is there.
  useLayoutEffect(() => {
    if (!ready || startedAtEnd.current || messages.length === 0) return;
    startedAtEnd.current = true;
    virtualizer.scrollToEnd();
    requestAnimationFrame(() => requestAnimationFrame(() => setArmed(true)));
  }, [ready, messages.length, virtualizer]);

  useEffect(() => {
    if (props.followSignal > 0) virtualizer.scrollToEnd();
  }, [props.followSignal, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index;
  const lastIndex = items[items.length - 1]?.index;
  useEffect(() => {
    if (!armed || firstIndex === undefined) return;
    if (firstIndex < loadOlderWithinRows && hasOlder && !loadingOlder) onLoadOlder();
  }, [armed, firstIndex, hasOlder, loadingOlder, onLoadOlder]);
  useEffect(() => {
    if (!armed || lastIndex === undefined) return;
    if (lastIndex >= messages.length - loadOlderWithinRows && hasNewer && !loadingNewer) onLoadNewer();
  }, [armed, lastIndex, messages.length, hasNewer, loadingNewer, onLoadNewer]);

  // The jump button is memoized, so its handler reads the latest props through a ref.
  const jumpRef = useRef<() => Promise<void>>(async () => undefined);
  jumpRef.current = async () => {
    if (hasNewer) await props.onJumpToLatest();
    virtualizer.scrollToEnd({ behavior: hasNewer ? 'auto' : 'smooth' });
  };
  const onJump = useCallback(() => void jumpRef.current(), []);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    // From the virtualizer's own figures, not the element's scrollHeight: reading that
    // right after the scroll render forces a layout of the rows just mounted.
    const onScroll = () => {
      const distance =
        virtualizer.getTotalSize() - (virtualizer.scrollOffset ?? 0) - (virtualizer.scrollRect?.height ?? 0);
      setAtEnd(distance < 200);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    // When the composer grows (a quote, files, more lines) the list gets shorter from the
    // bottom; moving the content up by as much keeps the newest messages in sight.
    let height = element.clientHeight;
    const observer = new ResizeObserver(() => {
      const shrunkBy = height - element.clientHeight;
      height = element.clientHeight;
      if (shrunkBy > 0) element.scrollTop += shrunkBy;
    });
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [virtualizer]);

  // One object for every row: a row re-renders only when what it shows changes.
  const { showAgentName, onReply, onRetry, canRetryPublic } = props;
  const options = useMemo<BubbleOptions>(
    () => ({ showAgentName, language, timeZone, onReply, onRetry, canRetryPublic, t }),
    [showAgentName, language, timeZone, onReply, onRetry, canRetryPublic, t],
  );

  return (
    <div className={classes.listArea}>
      <div
        ref={scrollRef}
        className={classes.scroller}
        data-testid="message-scroller"
        role="log"
        aria-live="polite"
        aria-label={t('chatRoom.messagesLabel')}
      >
        <div className={classes.rows} style={{ height: virtualizer.getTotalSize() }}>
          <ListTop loading={loadingOlder} atStart={ready && !hasOlder && messages.length > 0} />
          {loadingNewer ? (
            <Center pos="absolute" left={0} right={0} bottom={0} h={bottomPadding}>
              <Loader size="xs" />
            </Center>
          ) : null}
          {items.map((item) => (
            <MessageRow
              key={item.key}
              message={messages[item.index]}
              previous={messages[item.index - 1]}
              index={item.index}
              start={item.start}
              measureElement={virtualizer.measureElement}
              options={options}
            />
          ))}
        </div>
      </div>
      {props.typingName ? (
        <div className={classes.typing} data-testid="typing-indicator">
          {t('chatRoom.typing', { name: props.typingName })}
        </div>
      ) : null}
      {!atEnd || hasNewer ? <JumpToLatest missedBelow={props.missedBelow} onJump={onJump} /> : null}
    </div>
  );
}
