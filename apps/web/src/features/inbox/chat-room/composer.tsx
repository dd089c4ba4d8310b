import { type ChannelCode, inboxLimits, type MessageKind } from '@app/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  CloseButton,
  Group,
  SegmentedControl,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconLock, IconMessage, IconPaperclip, IconSend } from '@tabler/icons-react';
import { type KeyboardEvent, memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textLimitOf } from './attachment-check';
import classes from './chat-room.module.css';
import { PendingFileChips, useComposerFiles } from './composer-files';
import { EmojiPalette } from './emoji-palette';
import type { ChatMessage } from './message-timeline';
import type { OutgoingDraft } from './use-chat-timeline';

export interface ComposerProps {
  channel: ChannelCode;
  /** False when the chat expired: only internal notes may be written. */
  publicAllowed: boolean;
  showEmoji: boolean;
  showAttachment: boolean;
  quoted: ChatMessage | null;
  onClearQuote: () => void;
  onSend: (draft: OutgoingDraft) => void;
  onTyping: () => void;
  onStopTyping: () => void;
}

/**
 * Where the agent writes: a reply to the customer or an internal note, with emoji,
 * files checked against the channel's rules before they upload, and a quoted message.
 * Enter sends; Shift+Enter starts a new line.
 */
// Memoized: the chat room re-renders on every page of messages, and the autosized text
// area measures itself (a forced layout) on every render.
export const Composer = memo(function Composer(props: ComposerProps) {
  const { channel, publicAllowed } = props;
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [chosenKind, setKind] = useState<MessageKind>('PublicMessage');
  const { files, refusals, chooseFiles, removeFile, clearFiles, clearRefusals } = useComposerFiles(channel);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const kind: MessageKind = publicAllowed ? chosenKind : 'InternalMessage';
  const note = kind === 'InternalMessage';
  const limit = note ? inboxLimits.messageTextMax : textLimitOf(channel, files.length > 0);
  const trimmed = text.trim();
  const uploading = files.some((file) => file.state === 'uploading');
  const readyFiles = files.filter((file) => file.state === 'ready');
  const tooLong = text.length > limit;
  const canSend = (trimmed.length > 0 || readyFiles.length > 0) && !uploading && !tooLong;

  useEffect(() => {
    if (props.quoted) textareaRef.current?.focus();
  }, [props.quoted]);

  function insertEmoji(emoji: string) {
    const area = textareaRef.current;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  }

  function send() {
    if (!canSend) return;
    props.onSend({
      kind,
      text: trimmed,
      attachments: readyFiles.map((file) => file.attachment!),
      quoted: props.quoted,
    });
    setText('');
    clearFiles();
    props.onClearQuote();
    props.onStopTyping();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  return (
    <div className={`${classes.composer} ${note ? classes.composerNote : ''}`} data-testid="composer">
      {refusals.length ? (
        <Alert
          color="red"
          variant="light"
          mb="xs"
          py={6}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={clearRefusals}
        >
          {refusals.map((line) => (
            <Text key={line} size="xs">
              {line}
            </Text>
          ))}
        </Alert>
      ) : null}
      {props.quoted ? (
        <Group gap="xs" mb="xs" wrap="nowrap" className={classes.quote} data-testid="composer-quote">
          <div style={{ flex: 1, minWidth: 0 }}>
            <Text size="xs" fw={600} c="brand.8">
              {t('chatRoom.composer.replyingTo', { name: props.quoted.sender.name })}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {props.quoted.text || t('chatRoom.attachmentOnly')}
            </Text>
          </div>
          <CloseButton
            size="sm"
            aria-label={t('chatRoom.composer.cancelQuote')}
            onClick={props.onClearQuote}
          />
        </Group>
      ) : null}
      <div className={classes.composerBox}>
        <PendingFileChips files={files} onRemove={removeFile} />
        <Textarea
          ref={textareaRef}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (!note) props.onTyping();
          }}
          onKeyDown={onKeyDown}
          placeholder={note ? t('chatRoom.composer.notePlaceholder') : t('chatRoom.composer.placeholder')}
          aria-label={note ? t('chatRoom.composer.notePlaceholder') : t('chatRoom.composer.placeholder')}
          autosize
          minRows={2}
          maxRows={7}
          variant="unstyled"
          styles={{ input: { fontSize: 'var(--mantine-font-size-sm)', lineHeight: 1.5 } }}
          data-testid="composer-input"
        />
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap={2} wrap="nowrap">
            <SegmentedControl
              size="xs"
              value={kind}
              onChange={(value) => setKind(value as MessageKind)}
              data={[
                {
                  value: 'PublicMessage',
                  disabled: !publicAllowed,
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconMessage size={13} />
                      {t('chatRoom.composer.reply')}
                    </Group>
                  ),
                },
                {
                  value: 'InternalMessage',
                  label: (
                    <Group gap={4} wrap="nowrap">
                      <IconLock size={13} />
                      {t('chatRoom.composer.note')}
                    </Group>
                  ),
                },
              ]}
              mr={6}
            />
            {props.showEmoji ? <EmojiPalette onPick={insertEmoji} /> : null}
            {props.showAttachment ? (
              <>
                <Tooltip label={t('chatRoom.composer.attach')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="lg"
                    aria-label={t('chatRoom.composer.attach')}
                    onClick={() => fileInputRef.current?.click()}
                    disabled={files.length >= inboxLimits.attachmentsPerMessage}
                  >
                    <IconPaperclip size={20} />
                  </ActionIcon>
                </Tooltip>
                <input
                  ref={fileInputRef}
                  type="file"
                  multiple
                  hidden
                  data-testid="composer-file"
                  onChange={(event) => {
                    chooseFiles(event.currentTarget.files);
                    event.currentTarget.value = '';
                  }}
                />
              </>
            ) : null}
          </Group>
          <Group gap="sm" wrap="nowrap">
            {text.length > limit * 0.8 ? (
              <Text size="xs" c={tooLong ? 'red.7' : 'dimmed'} aria-live="polite">
                {t('chatRoom.composer.counter', { count: text.length, max: limit })}
              </Text>
            ) : null}
            <Button
              size="xs"
              color={note ? 'yellow.7' : undefined}
              rightSection={<IconSend size={14} />}
              onClick={send}
              disabled={!canSend}
              data-testid="composer-send"
            >
              {note ? t('chatRoom.composer.sendNote') : t('chatRoom.composer.send')}
            </Button>
          </Group>
        </Group>
      </div>
    </div>
  );
});
