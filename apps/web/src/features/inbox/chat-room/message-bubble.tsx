import { Anchor, Button, Group, Text } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowBackUp,
  IconCheck,
  IconChecks,
  IconClock,
  IconLock,
  IconRefresh,
} from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Fragment, memo } from 'react';
import { timeOf } from './chat-dates';
import classes from './chat-room.module.css';
import { MessageAttachments } from './message-attachments';
import { splitMessageText } from './message-text';
import type { ChatMessage } from './message-timeline';

/** Text with its line breaks and safe links, as React elements: markup in it stays text. */
export function MessageText({ text }: { text: string }) {
  const parts = splitMessageText(text);
  return (
    <span className={classes.text}>
      {parts.map((part, index) =>
        part.type === 'break' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text never reorder.
          <br key={index} />
        ) : part.type === 'link' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text never reorder.
          <Anchor key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow" inherit>
            {part.text}
          </Anchor>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text never reorder.
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </span>
  );
}

function StatusTick({ message, label }: { message: ChatMessage; label: string }) {
  const icon =
    message.status === 'PENDING' ? (
      <IconClock size={13} aria-hidden />
    ) : message.status === 'SENT' ? (
      <IconCheck size={14} aria-hidden />
    ) : message.status === 'DELIVERED' ? (
      <IconChecks size={14} aria-hidden />
    ) : message.status === 'READ' ? (
      <IconChecks size={14} color="var(--mantine-color-blue-6)" aria-hidden />
    ) : (
      <IconAlertCircle size={14} color="var(--mantine-color-red-6)" aria-hidden />
    );
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-status={message.status}
      style={{ display: 'flex' }}
    >
      {icon}
    </span>
  );
}

/**
 * What every bubble of the list shares: one object, built once per change of settings, so
 * a memoized bubble re-renders only when its own message or grouping changes. `t` comes in
 * here rather than through a hook per bubble: a fast scroll mounts bubbles every frame.
 */
export interface BubbleOptions {
  showAgentName: boolean;
  language: string;
  timeZone: string;
  onReply: ((message: ChatMessage) => void) | null;
  onRetry: ((message: ChatMessage) => void) | null;
  /** False while the chat is expired: a public retry would be refused again. */
  canRetryPublic: boolean;
  t: TFunction;
}

export interface MessageBubbleProps {
  message: ChatMessage;
  /** Same sender as the message above, within a few minutes: the name is not repeated. */
  grouped: boolean;
  options: BubbleOptions;
}

/**
 * One message: the customer's on the left, the team's on the right, internal notes in
 * yellow with their label, system lines centred. Failed sends say why and offer Retry.
 */
export const MessageBubble = memo(function MessageBubble({ message, grouped, options }: MessageBubbleProps) {
  const { showAgentName, language, timeZone, onReply, onRetry, canRetryPublic, t } = options;
  if (message.sender.type === 'SYSTEM') {
    return (
      <div className={classes.system} data-testid="system-line">
        <MessageText text={message.text} />
        <span style={{ marginLeft: 6, opacity: 0.8 }}>{timeOf(message.createdAt, language, timeZone)}</span>
      </div>
    );
  }
  const outbound = message.direction === 'OUTBOUND';
  const note = message.kind === 'InternalMessage';
  const failed = message.status === 'FAILED';
  const bubbleClass = [
    classes.bubble,
    note ? classes.bubbleNote : outbound ? classes.bubbleOut : classes.bubbleIn,
    grouped ? classes.grouped : '',
    failed ? classes.bubbleFailed : '',
  ].join(' ');

  return (
    <div className={`${classes.line} ${outbound ? classes.lineOut : ''}`}>
      <div
        className={bubbleClass}
        data-testid="message-bubble"
        data-kind={message.kind}
        data-direction={message.direction}
      >
        {/* Plain elements with classes, not Text and Group: a fast scroll mounts bubbles every frame. */}
        {note ? (
          <div className={classes.noteHeader}>
            <IconLock size={12} color="#b08800" aria-hidden />
            <span className={classes.noteLabel}>{t('chatRoom.internalNote')}</span>
            {!grouped ? <span className={classes.noteSender}>· {message.sender.name}</span> : null}
          </div>
        ) : outbound && showAgentName && !grouped ? (
          <div className={classes.senderName}>{message.sender.name}</div>
        ) : null}
        {message.quoted ? (
          <div className={classes.quote}>
            <Text size="xs" fw={600} c="brand.8" truncate>
              {message.quoted.senderName}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {message.quoted.text || t('chatRoom.attachmentOnly')}
            </Text>
          </div>
        ) : null}
        <MessageAttachments attachments={message.attachments} />
        {message.text ? <MessageText text={message.text} /> : null}
        <div className={classes.meta}>
          <span>{timeOf(message.createdAt, language, timeZone)}</span>
          {/* Notes never reach the customer: only saving and failing are worth a mark. */}
          {outbound && (!note || message.status === 'PENDING' || failed) ? (
            <StatusTick message={message} label={t(`chatRoom.messageStatus.${message.status}`)} />
          ) : null}
        </div>
        {failed ? (
          <Group gap={8} mt={4} wrap="nowrap" justify="space-between" align="flex-end" data-testid="failure">
            <Text size="xs" c="red.7" lineClamp={3}>
              {t('chatRoom.failed', { reason: message.failureReason ?? t('chatRoom.failedUnknown') })}
            </Text>
            {onRetry && (message.kind === 'InternalMessage' || canRetryPublic) ? (
              <Button
                size="compact-xs"
                variant="light"
                color="red"
                leftSection={<IconRefresh size={12} />}
                onClick={() => onRetry(message)}
                style={{ flexShrink: 0 }}
                data-testid="retry-button"
              >
                {t('chatRoom.retry')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </div>
      {onReply && message.id !== null ? (
        <div className={classes.hoverActions}>
          {/*
           * A plain button with a native title, not an ActionIcon with a Tooltip: every
           * visible row has one, and a fast scroll up a long room mounts rows every frame.
           */}
          <button
            type="button"
            className={classes.replyButton}
            aria-label={t('chatRoom.reply')}
            title={t('chatRoom.reply')}
            onClick={() => onReply(message)}
          >
            <IconArrowBackUp size={16} aria-hidden />
          </button>
        </div>
      ) : null}
    </div>
  );
});
