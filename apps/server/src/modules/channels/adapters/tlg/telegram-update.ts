import { z } from 'zod';

/**
 * The parts of Telegram's Update the inbox reads (channel-protocols.md §4). Everything else
 * passes through unread; a kind of message the inbox has no place for is kept as a line of
 * text naming it, so nothing a customer sent disappears silently.
 */
const user = z.object({
  id: z.number(),
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});
const chat = z.object({
  id: z.number(),
  type: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});
const file = z.object({
  file_id: z.string(),
  file_unique_id: z.string().optional(),
  file_size: z.number().optional(),
  file_name: z.string().optional(),
  mime_type: z.string().optional(),
});
const message = z.object({
  message_id: z.number(),
  from: user.optional(),
  chat,
  date: z.number(),
  text: z.string().optional(),
  caption: z.string().optional(),
  photo: z.array(file).optional(),
  document: file.optional(),
  video: file.optional(),
  audio: file.optional(),
  voice: file.optional(),
  video_note: file.optional(),
  sticker: file.extend({ emoji: z.string().optional() }).optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  contact: z
    .object({ phone_number: z.string(), first_name: z.string(), last_name: z.string().optional() })
    .optional(),
});
export const telegramUpdateSchema = z.object({
  update_id: z.number(),
  message: message.optional(),
  my_chat_member: z
    .object({ chat, new_chat_member: z.object({ status: z.string() }).passthrough() })
    .passthrough()
    .optional(),
});
export type ParsedTelegramUpdate = z.infer<typeof telegramUpdateSchema>;
export type ParsedTelegramMessage = z.infer<typeof message>;
/** A message alone, as the inbound journal keeps it. */
export const telegramMessageSchema = message;

/** A file the customer sent, to be fetched with getFile. */
export interface IncomingFile {
  fileId: string;
  name: string;
  mime: string;
  size?: number;
}

/** What a customer's message carries: its text, and the file to fetch if any. */
export interface IncomingContent {
  text: string;
  file: IncomingFile | null;
}

const extensionOf: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
};

/** Names a file Telegram gave none, from its kind, its message and its type. */
const named = (kind: string, messageId: number, mime: string) =>
  `${kind}-${messageId}.${extensionOf[mime] ?? 'bin'}`;

export function contentOf(message: ParsedTelegramMessage): IncomingContent {
  const text = message.text ?? message.caption ?? '';
  const id = message.message_id;
  if (message.photo?.length) {
    const largest = message.photo[message.photo.length - 1];
    return {
      text,
      file: {
        fileId: largest.file_id,
        name: named('photo', id, 'image/jpeg'),
        mime: 'image/jpeg',
        size: largest.file_size,
      },
    };
  }
  const carried = message.document ?? message.video ?? message.audio ?? message.voice ?? message.video_note;
  if (carried) {
    const kind = message.document ? 'document' : message.video || message.video_note ? 'video' : 'audio';
    const mime =
      carried.mime_type ??
      (message.voice ? 'audio/ogg' : kind === 'video' ? 'video/mp4' : 'application/octet-stream');
    return {
      text,
      file: {
        fileId: carried.file_id,
        name: carried.file_name ?? named(kind, id, mime),
        mime,
        size: carried.file_size,
      },
    };
  }
  if (message.sticker) {
    const mime = message.sticker.mime_type ?? 'image/webp';
    return {
      text: text || message.sticker.emoji || '',
      file: { fileId: message.sticker.file_id, name: named('sticker', id, mime), mime },
    };
  }
  if (message.location) {
    const { latitude, longitude } = message.location;
    return { text: `📍 https://maps.google.com/?q=${latitude},${longitude}`, file: null };
  }
  if (message.contact) {
    const { first_name, last_name, phone_number } = message.contact;
    return { text: `👤 ${[first_name, last_name].filter(Boolean).join(' ')} ${phone_number}`, file: null };
  }
  return { text, file: null };
}

/** The customer's name as Telegram shows it. */
export function customerNameOf(message: ParsedTelegramMessage): string {
  const who = message.from ?? message.chat;
  const name = [who.first_name, who.last_name].filter(Boolean).join(' ').trim();
  return name || (who.username ? `@${who.username}` : `Telegram ${message.chat.id}`);
}
