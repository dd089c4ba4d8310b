import { z } from 'zod';
import { inboxLimits } from './inbox';

/**
 * Inbox media (core-inbox §7 'Inbox media', §5 file names): the upload link, the signed
 * links files are read through, the provider-media call and the multi-file upload.
 */

const megabytes = (count: number) => count * 1024 * 1024;

export const mediaLimits = {
  /** The largest file any channel accepts (a WhatsApp-like document). */
  uploadMaxBytes: megabytes(100),
  /** How long an upload link may be used. */
  uploadLinkTtlSeconds: 15 * 60,
  /** How long a read link works at least. */
  readLinkTtlSeconds: 60 * 60,
  /** Files in one multi-attachment upload: as many as one message may carry. */
  filesPerUpload: inboxLimits.attachmentsPerMessage,
  filenameMax: 255,
} as const;

/**
 * Hosts where messaging providers keep media; links there are resolved through
 * `GET /api/csp/image` (a host matches itself and its subdomains).
 */
export const providerMediaHosts: ReadonlyArray<string> = [
  'lookaside.fbsbx.com',
  'lookaside.facebook.com',
  'fbcdn.net',
  'cdninstagram.com',
  'mmg.whatsapp.net',
  'api.telegram.org',
  'api-data.line.me',
];

/** Media error texts (precise ones where the spec is silent). */
export const mediaErrors = {
  attachmentNotFound: 'Attachment not found',
  mediaNotAvailable: 'Media not available',
  linkInvalid: 'Link is invalid or expired',
  contentTypeMismatch: 'Content type does not match the upload link',
  alreadyUploaded: 'File is already uploaded',
  emptyFile: 'File is empty',
  fileTooLarge: 'File is larger than 100 MB',
  noFiles: 'No file in the request',
  tooManyFiles: 'Too many files in one upload',
} as const;

const contentType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/, 'contentType must be a media type such as image/png');

/** `GET /api/csp/upload/getLink` query. */
export const uploadLinkQuery = z.object({
  filename: z.string().trim().min(1).max(mediaLimits.filenameMax),
  contentType,
});
export type UploadLinkQuery = z.infer<typeof uploadLinkQuery>;

/** Where to PUT the file, and the link it will be read from once uploaded. */
export const uploadLinkResponse = z.object({
  fileId: z.string().uuid(),
  uploadUrl: z.string(),
  url: z.string(),
});
export type UploadLinkResponse = z.infer<typeof uploadLinkResponse>;

/** The query of every signed link. */
export const signedLinkQuery = z.object({
  expires: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(128),
});

/** `GET /api/csp/image`: a media URL to make readable, with optional hints (core-inbox §7). */
export const mediaImageQuery = z.object({
  media: z.string().trim().min(1).max(4096),
  mime: z.string().max(255).optional(),
  type: z.string().max(64).optional(),
  s: z.string().max(64).optional(),
});
export const mediaImageResponse = z.object({ url: z.string() });

/** A stored file with a link to read it. */
export const storedFileView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  url: z.string(),
});
export type StoredFileView = z.infer<typeof storedFileView>;

/** `POST /api/csp/image/multiAttachment` answer. */
export const multiAttachmentResponse = z.object({ attachments: z.array(storedFileView) });

/**
 * The stored name of an uploaded file (core-inbox §5): spaces become underscores and a
 * timestamp prefix keeps two uploads of the same name apart. Folders in the name go.
 */
export function mediaFileName(original: string, now: Date = new Date()): string {
  const base = original.split(/[\\/]/).pop()?.trim() || 'file';
  const cleaned = base
    .replace(/\s+/g, '_')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(-(mediaLimits.filenameMax - 14));
  return `${now.getTime()}_${cleaned || 'file'}`;
}

/** Files a browser may show in place; everything else downloads, so HTML never renders. */
export function isInlineMedia(mime: string): boolean {
  const type = mime.toLowerCase();
  if (type === 'image/svg+xml') return false;
  return type.startsWith('image/') || type.startsWith('audio/') || type.startsWith('video/');
}
