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
import { Fragment, memo } from 'react';
import { useTranslation } from 'react-i18next';
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

export interface MessageBubbleProps {
  message: ChatMessage;
  /** Same sender as the message above, within a few minutes: the name is not repeated. */
  grouped: boolean;
  showAgentName: boolean;
  language: string;
  timeZone: string;
  onReply: ((message: ChatMessage) => void) | null;
  onRetry: ((message: ChatMessage) => void) | null;
  /** False while the chat is expired: a public retry would be refused again. */
  canRetryPublic: boolean;
}

/**
 * One message: the customer's on the left, the team's on the right, internal notes in
 * yellow with their label, system lines centred. Failed sends say why and offer Retry.
 */
export const MessageBubble = memo(function MessageBubble({
  message,
  grouped,
  showAgentName,
  language,
  timeZone,
  onReply,
  onRetry,
  canRetryPublic,
}: MessageBubbleProps) {
  const { t } = useTranslation();
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
        {note ? (
          <Group gap={4} mb={2} wrap="nowrap">
            <IconLock size={12} color="#b08800" aria-hidden />
            <Text size="xs" fw={600} c="#8a6d00">
              {t('chatRoom.internalNote')}
            </Text>
            {!grouped ? (
              <Text size="xs" c="dimmed" truncate>
                · {message.sender.name}
              </Text>
            ) : null}
          </Group>
        ) : outbound && showAgentName && !grouped ? (
          <Text size="xs" fw={600} c="brand.8" mb={2} truncate>
            {message.sender.name}
          </Text>
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
