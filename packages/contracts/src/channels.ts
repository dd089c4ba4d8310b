/**
 * The channel table of core-inbox §3 and §9: every channel the inbox speaks, with what
 * the composer and the list need to know about it.
 */
export const channelCodes = [
  'WAP',
  'IGM',
  'MSG',
  'TPD',
  'LZD',
  'SHP',
  'WPU',
  'VBR',
  'LNE',
  'TLG',
  'LVC',
  'EML',
] as const;
export type ChannelCode = (typeof channelCodes)[number];

/** Which kinds of attachment an agent may send on the channel (1 allowed, 0 not). */
export interface AttachmentFlags {
  transaction: boolean;
  image: boolean;
  videoImage: boolean;
  audio: boolean;
  document: boolean;
}

export interface ChannelDefinition {
  code: ChannelCode;
  name: string;
  /** Brand colour for badges and icons. */
  colour: string;
  /** The code the ticket filter sends for this channel. */
  filterCode: string;
  /** Chats expire 24 hours after the last customer message. */
  hasExpiryDate: boolean;
  attachments: AttachmentFlags;
  captionLimit: number;
  hasReplyButton: boolean;
  /** False for channels a client may connect only once. */
  multipleConnect: boolean;
}

const flags = (bits: string): AttachmentFlags => {
  const [transaction, image, videoImage, audio, document] = bits.split(',').map((bit) => bit === '1');
  return { transaction, image, videoImage, audio, document };
};

const define = (
  code: ChannelCode,
  name: string,
  colour: string,
  attachmentBits: string,
  extra: Partial<Omit<ChannelDefinition, 'code' | 'name' | 'colour' | 'attachments'>> = {},
): ChannelDefinition => ({
  code,
  name,
  colour,
  filterCode: code,
  hasExpiryDate: ['WAP', 'IGM', 'MSG'].includes(code),
  attachments: flags(attachmentBits),
  captionLimit: ['VBR', 'LNE', 'TLG'].includes(code) ? 512 : 4096,
  hasReplyButton: ['WAP', 'IGM', 'MSG', 'WPU', 'VBR'].includes(code),
  multipleConnect: !['WAP', 'WPU', 'VBR', 'LNE', 'TLG'].includes(code),
  ...extra,
});

/** Attachment permissions per channel: transaction, image, video/image, audio, document. */
export const channels: Readonly<Record<ChannelCode, ChannelDefinition>> = {
  WAP: define('WAP', 'WhatsApp', '#25D366', '1,0,1,1,1'),
  IGM: define('IGM', 'Instagram', '#E1306C', '1,0,1,1,1'),
  MSG: define('MSG', 'Facebook Messenger', '#0084FF', '1,0,1,1,1'),
  TPD: define('TPD', 'Tokopedia', '#03AC0E', '0,0,0,0,0'),
  LZD: define('LZD', 'Lazada', '#0F146D', '0,1,0,0,0'),
  SHP: define('SHP', 'Shopee', '#EE4D2D', '0,0,0,0,0'),
  WPU: define('WPU', 'WhatsApp (unofficial)', '#128C7E', '0,0,1,1,1'),
  VBR: define('VBR', 'Viber', '#7360F2', '0,0,1,0,1'),
  LNE: define('LNE', 'LINE', '#06C755', '1,0,1,1,0'),
  TLG: define('TLG', 'Telegram', '#229ED9', '1,0,1,1,1'),
  LVC: define('LVC', 'Live Chat', '#2563EB', '1,0,1,1,1'),
  EML: define('EML', 'Email', '#6B7280', '0,0,1,1,1'),
};

export const channelList: ReadonlyArray<ChannelDefinition> = channelCodes.map((code) => channels[code]);

/** Channels the partner build allows (core-inbox §1). */
export const partnerChannels: ReadonlyArray<ChannelCode> = [
  'IGM',
  'MSG',
  'TPD',
  'LZD',
  'SHP',
  'WPU',
  'LNE',
  'TLG',
];

/** How long after the last customer message a chat on an expiring channel expires. */
export const chatExpiryMs = 24 * 60 * 60 * 1000;

export type AttachmentCategory = 'image' | 'audio' | 'video' | 'document';

interface AttachmentRule {
  maxBytes: number;
  /** Allowed extensions, lower case; null means any. */
  extensions: ReadonlyArray<string> | null;
}

const megabytes = (count: number) => count * 1024 * 1024;

/** Size and extension rules by channel family (core-inbox §5, commerce media rules). */
const whatsappLike: Record<AttachmentCategory, AttachmentRule | null> = {
  image: { maxBytes: megabytes(5), extensions: ['jpeg', 'jpg', 'png'] },
  audio: { maxBytes: megabytes(16), extensions: ['aac', 'amr', 'mp3', 'm4a', 'ogg'] },
  video: { maxBytes: megabytes(16), extensions: ['3gp', 'mp4'] },
  document: { maxBytes: megabytes(100), extensions: null },
};
const instagramLike: Record<AttachmentCategory, AttachmentRule | null> = {
  image: { maxBytes: megabytes(8), extensions: ['png', 'jpeg', 'jpg', 'gif'] },
  audio: { maxBytes: megabytes(25), extensions: ['aac', 'm4a', 'wav', 'mp3'] },
  video: { maxBytes: megabytes(25), extensions: ['mp4', 'ogg', 'avi', 'mov', 'webm'] },
  document: null,
};

/** The rules a channel's attachments follow: Instagram and Messenger are Instagram-like. */
export function attachmentRulesOf(code: ChannelCode): Record<AttachmentCategory, AttachmentRule | null> {
  return code === 'IGM' || code === 'MSG' ? instagramLike : whatsappLike;
}

/** File type category from the mime type (core-inbox §5). */
export function attachmentCategoryOf(mime: string): AttachmentCategory {
  const type = mime.toLowerCase();
  if (type === 'image/jpeg' || type === 'image/png' || type === 'image/gif') return 'image';
  if (
    ['audio/aac', 'audio/mp4', 'audio/amr', 'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/x-m4a'].includes(
      type,
    )
  )
    return 'audio';
  if (type === 'video/mp4' || type === 'video/3gpp' || type.startsWith('video/')) return 'video';
  return 'document';
}

/** Why a file may not be sent on a channel, or null when it may. */
export function attachmentRefusal(
  code: ChannelCode,
  file: { name: string; mime: string; size: number },
): 'type' | 'size' | null {
  const category = attachmentCategoryOf(file.mime);
  const flagsOf = channels[code].attachments;
  const allowedByChannel =
    category === 'image' || category === 'video'
      ? flagsOf.videoImage || flagsOf.image
      : category === 'audio'
        ? flagsOf.audio
        : flagsOf.document;
  const rule = attachmentRulesOf(code)[category];
  if (!allowedByChannel || !rule) return 'type';
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (rule.extensions && !rule.extensions.includes(extension)) return 'type';
  if (file.size > rule.maxBytes) return 'size';
  return null;
}
