import type { AttachmentView } from '@app/contracts';
import {
  Anchor,
  Box,
  Group,
  Image,
  Loader,
  Modal,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { IconDownload, IconFileText, IconPhotoOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayFileName, formatFileSize } from './attachment-check';
import classes from './chat-room.module.css';
import { resolveProviderMedia } from './chat-room.queries';
import { mediaSourceOf } from './media-source';

/** The link to show for an attachment; provider links stay a placeholder until resolved. */
function useMediaUrl(url: string): { src: string | null; loading: boolean } {
  const source = mediaSourceOf(url);
  const resolved = useQuery({
    queryKey: ['chatRoom', 'media', url],
    queryFn: () => resolveProviderMedia(url),
    enabled: source === 'provider',
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  if (source === 'own') return { src: url, loading: false };
  if (source === 'refused') return { src: null, loading: false };
  return { src: resolved.data ?? null, loading: resolved.isPending };
}

function MediaPlaceholder({ loading, name }: { loading: boolean; name: string }) {
  const { t } = useTranslation();
  return (
    <Box className={classes.mediaPlaceholder} aria-label={name}>
      {loading ? <Loader size="sm" /> : <IconPhotoOff size={28} stroke={1.5} />}
      <Text size="xs" c="dimmed">
        {loading ? t('chatRoom.media.loading') : t('chatRoom.media.unavailable')}
      </Text>
    </Box>
  );
}

function ImageAttachment({ attachment }: { attachment: AttachmentView }) {
  const { t } = useTranslation();
  const { src, loading } = useMediaUrl(attachment.url);
  const [open, setOpen] = useState(false);
  if (!src) return <MediaPlaceholder loading={loading} name={attachment.name} />;
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={t('chatRoom.media.openImage', { name: displayFileName(attachment.name) })}
        className={classes.imageButton}
      >
        <Image
          src={src}
          alt={displayFileName(attachment.name)}
          className={classes.imageThumb}
          loading="lazy"
        />
      </UnstyledButton>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        size="auto"
        centered
        title={
          <Text size="sm" fw={600} truncate maw={480}>
            {displayFileName(attachment.name)}
          </Text>
        }
      >
        <Stack gap="sm" align="center">
          <Image src={src} alt={displayFileName(attachment.name)} mah="75vh" maw="80vw" fit="contain" />
          <Anchor
            href={src}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            download={displayFileName(attachment.name)}
          >
            <Group gap={4}>
              <IconDownload size={14} />
              {t('chatRoom.media.download')}
            </Group>
          </Anchor>
        </Stack>
      </Modal>
    </>
  );
}

function PlayerAttachment({ attachment }: { attachment: AttachmentView }) {
  const { src, loading } = useMediaUrl(attachment.url);
  if (!src) return <MediaPlaceholder loading={loading} name={attachment.name} />;
  if (attachment.type === 'audio')
    // biome-ignore lint/a11y/useMediaCaption: customers' voice notes come without captions.
    return <audio controls preload="metadata" src={src} className={classes.audio} />;
  // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions.
  return <video controls preload="metadata" src={src} className={classes.video} />;
}

function FileAttachment({ attachment }: { attachment: AttachmentView }) {
  const { src, loading } = useMediaUrl(attachment.url);
  const content = (
    <Group gap="xs" wrap="nowrap" className={classes.fileChip}>
      <ThemeIcon variant="light" color="gray" size={32} radius="md">
        {loading ? <Loader size={14} /> : <IconFileText size={18} />}
      </ThemeIcon>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate maw={200} title={displayFileName(attachment.name)}>
          {displayFileName(attachment.name)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatFileSize(attachment.size)}
        </Text>
      </Stack>
    </Group>
  );
  if (!src) return content;
  return (
    <Anchor
      href={src}
      target="_blank"
      rel="noopener noreferrer"
      download={displayFileName(attachment.name)}
      underline="never"
    >
      {content}
    </Anchor>
  );
}

/** A message's files: images inline (with a lightbox), players for sound and video, chips for the rest. */
export function MessageAttachments({ attachments }: { attachments: ReadonlyArray<AttachmentView> }) {
  if (attachments.length === 0) return null;
  return (
    <Stack gap={6} mb={4}>
      {attachments.map((attachment) =>
        attachment.type === 'image' ? (
          <ImageAttachment key={attachment.id} attachment={attachment} />
        ) : attachment.type === 'audio' || attachment.type === 'video' ? (
          <PlayerAttachment key={attachment.id} attachment={attachment} />
        ) : (
          <FileAttachment key={attachment.id} attachment={attachment} />
        ),
      )}
    </Stack>
  );
}
