import { attachmentRefusal, type ChannelCode, channels, inboxLimits } from '@app/contracts';

/** Why a chosen file cannot go out: the channel refuses its type, its size, or the message is full. */
export type FileRefusal = 'type' | 'size' | 'count';

export interface FileCheck<F> {
  accepted: F[];
  refused: Array<{ file: F; reason: FileRefusal }>;
}

interface FileLike {
  name: string;
  type: string;
  size: number;
}

/**
 * Splits chosen files into those the channel takes and those it refuses, before any
 * upload (core-inbox §5: a file is valid only if both its size and its extension are
 * allowed). `alreadyAttached` counts files waiting in the composer, so a message never
 * carries more than the inbox allows.
 */
export function checkFiles<F extends FileLike>(
  channel: ChannelCode,
  files: ReadonlyArray<F>,
  alreadyAttached: number,
): FileCheck<F> {
  const accepted: F[] = [];
  const refused: FileCheck<F>['refused'] = [];
  for (const file of files) {
    const refusal = attachmentRefusal(channel, { name: file.name, mime: file.type, size: file.size });
    if (refusal) refused.push({ file, reason: refusal });
    else if (alreadyAttached + accepted.length >= inboxLimits.attachmentsPerMessage)
      refused.push({ file, reason: 'count' });
    else accepted.push(file);
  }
  return { accepted, refused };
}

/** True when the channel takes at least one kind of file from the agent. */
export function channelTakesFiles(channel: ChannelCode): boolean {
  const flags = channels[channel].attachments;
  return flags.image || flags.videoImage || flags.audio || flags.document;
}

/** The longest text the composer allows: the channel's caption limit once files are attached. */
export function textLimitOf(channel: ChannelCode, withFiles: boolean): number {
  return withFiles
    ? Math.min(channels[channel].captionLimit, inboxLimits.messageTextMax)
    : inboxLimits.messageTextMax;
}

const sizeUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** A file size the way the spec formats it: bytes to YB, one decimal below 10 (core-inbox §9). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < sizeUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit > 0 && value < 10 ? value.toFixed(1) : Math.round(value).toString();
  return `${rounded} ${sizeUnits[unit]}`;
}

/**
 * The name to show for a stored file: storage prefixes a timestamp to keep uploads apart
 * (core-inbox §5), which means nothing to the agent reading the chat.
 */
export function displayFileName(stored: string): string {
  return stored.replace(/^\d{10,}_/, '') || stored;
}
