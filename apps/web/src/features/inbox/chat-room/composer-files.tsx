import {
  type AttachmentView,
  attachmentCategoryOf,
  type ChannelCode,
  channels,
  inboxLimits,
} from '@app/contracts';
import { CloseButton, Group, Loader, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkFiles, formatFileSize } from './attachment-check';
import classes from './chat-room.module.css';
import { uploadFile } from './chat-room.queries';

/** A file chosen in the composer: uploading, ready to send (with its stored id), or failed. */
export interface PendingFile {
  localId: string;
  file: File;
  state: 'uploading' | 'ready' | 'failed';
  attachment: AttachmentView | null;
}

/**
 * The composer's files: each chosen file is checked against the channel's rules first
 * (the refused ones are named with the reason), and the accepted ones upload at once so
 * that sending only has to name their ids.
 */
export function useComposerFiles(channel: ChannelCode) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);

  const upload = useCallback(async (pending: PendingFile) => {
    const result = await uploadFile(pending.file);
    setFiles((current) =>
      current.map((file): PendingFile => {
        if (file.localId !== pending.localId) return file;
        if (!result.ok) return { ...file, state: 'failed' };
        return {
          ...file,
          state: 'ready',
          attachment: {
            id: result.data.fileId,
            name: pending.file.name,
            mime: pending.file.type || 'application/octet-stream',
            size: pending.file.size,
            type: attachmentCategoryOf(pending.file.type),
            url: result.data.url,
          },
        };
      }),
    );
  }, []);

  const chooseFiles = (list: FileList | null) => {
    if (!list?.length) return;
    const { accepted, refused } = checkFiles(channel, Array.from(list), files.length);
    setRefusals(
      refused.map(({ file, reason }) =>
        t(`chatRoom.composer.refused.${reason}`, {
          name: file.name,
          channel: channels[channel].name,
          max: inboxLimits.attachmentsPerMessage,
        }),
      ),
    );
    const added = accepted.map(
      (file): PendingFile => ({ localId: crypto.randomUUID(), file, state: 'uploading', attachment: null }),
    );
    setFiles((current) => [...current, ...added]);
    for (const pending of added) void upload(pending);
  };

  return {
    files,
    refusals,
    chooseFiles,
    removeFile: (localId: string) =>
      setFiles((current) => current.filter((file) => file.localId !== localId)),
    clearFiles: () => {
      setFiles([]);
      setRefusals([]);
    },
    clearRefusals: () => setRefusals([]),
  };
}

/** The chosen files above the text: name, size or upload state, and a remove button. */
export function PendingFileChips({
  files,
  onRemove,
}: {
  files: ReadonlyArray<PendingFile>;
  onRemove: (localId: string) => void;
}) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <Group gap={6} pt={6} pb={2}>
      {files.map((pending) => (
        <Group
          key={pending.localId}
          gap={6}
          wrap="nowrap"
          className={classes.fileChip}
          style={pending.state === 'failed' ? { color: 'var(--mantine-color-red-7)' } : undefined}
        >
          {pending.state === 'uploading' ? <Loader size={12} /> : <IconPaperclip size={14} />}
          <Text size="xs" truncate maw={160} inherit>
            {pending.file.name}
          </Text>
          <Text size="xs" c={pending.state === 'failed' ? 'red.7' : 'dimmed'}>
            {pending.state === 'failed'
              ? t('chatRoom.composer.uploadFailed')
              : formatFileSize(pending.file.size)}
          </Text>
          <CloseButton
            size="xs"
            aria-label={t('chatRoom.composer.removeFile', { name: pending.file.name })}
            onClick={() => onRemove(pending.localId)}
          />
        </Group>
      ))}
    </Group>
  );
}
