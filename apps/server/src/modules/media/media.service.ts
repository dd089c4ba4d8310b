import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  mediaErrors,
  mediaFileName,
  mediaLimits,
  providerMediaHosts,
  type StoredFileView,
  type UploadLinkResponse,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/http/http-errors';
import { type FileStorage, FileTooLargeError } from '../../platform/storage/file-storage';
import { SignedLinks } from '../../platform/storage/signed-links';
import type { AttachmentStore, StoredAttachment } from '../inbox/attachment-store';
import {
  findMediaFile,
  findMediaFileForSignedLink,
  findReadyFilesOfOwner,
  insertMediaFile,
  type MediaFileRow,
  markMediaFileReady,
} from './media.repository';
import { hostMatches, type MediaResolver } from './media-resolver';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ownMediaPath = /^\/api\/media\/([0-9a-f-]{36})$/i;
const purposes = { read: 'media-read', upload: 'media-upload' } as const;
/** Read links expire on a grid, so the same file keeps the same link for a while and browsers cache it. */
const readLinkGridSeconds = 15 * 60;

export interface SignedLink {
  expires: number;
  signature: string;
}

/** An open stored file with what it is. */
export interface OpenedMedia {
  file: StoredAttachment;
  stream: Readable;
  size: number;
}

export interface MediaServiceOptions {
  /** Hosts whose links are provider media (default: the contracts' list). */
  providerHosts?: ReadonlyArray<string>;
  now?: () => Date;
}

const attachmentOf = (row: MediaFileRow): StoredAttachment => ({
  id: row.id,
  name: row.name,
  mime: row.mime,
  size: row.size,
});

/** The media type of a Content-Type header, without parameters, in lower case. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Uploaded files: presigned uploads, files kept for the live chat and the adapters, the
 * attachment store of the inbox, and signed links to read them. A file belongs to one
 * client and one uploader (`user:<id>` or `identity:<id>`); only the uploader may attach
 * it, anyone holding a link of that client may read it until the link expires.
 */
export class MediaService implements AttachmentStore {
  private readonly links: SignedLinks;
  private readonly resolvers: MediaResolver[] = [];
  private readonly providerHosts: ReadonlyArray<string>;
  private readonly now: () => Date;

  constructor(
    private readonly db: Database,
    private readonly storage: FileStorage,
    secret: string,
    options: MediaServiceOptions = {},
  ) {
    this.links = new SignedLinks(secret);
    this.providerHosts = options.providerHosts ?? providerMediaHosts;
    this.now = options.now ?? (() => new Date());
  }

  /** Lets a channel adapter resolve its provider's media links. */
  registerResolver(resolver: MediaResolver): void {
    this.resolvers.push(resolver);
  }

  /** A pending file and a link to PUT its bytes to within 15 minutes. */
  async createUpload(
    clientId: string,
    ownerRef: string,
    request: { filename: string; contentType: string },
  ): Promise<UploadLinkResponse> {
    const row = await withTenant(this.db, clientId, (tx) =>
      insertMediaFile(tx, {
        clientId,
        ownerRef,
        name: mediaFileName(request.filename, this.now()),
        mime: mediaTypeOf(request.contentType),
        status: 'PENDING',
      }),
    );
    const expires = Math.floor(this.now().getTime() / 1000) + mediaLimits.uploadLinkTtlSeconds;
    const signature = this.links.sign(purposes.upload, [clientId, row.id], expires);
    return {
      fileId: row.id,
      uploadUrl: `/api/media/upload/${row.id}?expires=${expires}&signature=${signature}`,
      url: this.linkOf(clientId, { id: row.id }),
    };
  }

  /**
   * Receives the bytes of a presigned upload. The signature is the authority: it names the
   * client and the file. The body must be of the type asked for, not empty, at most 100 MB.
   */
  async completeUpload(
    fileId: string,
    link: SignedLink,
    upload: { contentType: string | undefined; declaredSize?: number; content: Readable },
  ): Promise<StoredFileView> {
    const row = uuidPattern.test(fileId) ? await findMediaFileForSignedLink(this.db, fileId) : undefined;
    if (!row || !this.links.verify(purposes.upload, [row.clientId, row.id], link.expires, link.signature))
      throw forbidden(mediaErrors.linkInvalid);
    if (row.status !== 'PENDING') throw new HttpError(409, mediaErrors.alreadyUploaded);
    if (mediaTypeOf(upload.contentType) !== row.mime) throw badRequest(mediaErrors.contentTypeMismatch);
    if (upload.declaredSize !== undefined && upload.declaredSize > mediaLimits.uploadMaxBytes)
      throw new HttpError(413, mediaErrors.fileTooLarge);

    const key = { clientId: row.clientId, fileId: row.id };
    const { size } = await this.write(key, upload.content);
    if (size === 0) {
      await this.storage.remove(key);
      throw badRequest(mediaErrors.emptyFile);
    }
    const marked = await withTenant(this.db, row.clientId, (tx) =>
      markMediaFileReady(tx, row.clientId, row.id, size),
    );
    if (!marked) throw new HttpError(409, mediaErrors.alreadyUploaded);
    return this.viewOf(row.clientId, { ...attachmentOf(row), size });
  }

  /** Keeps bytes already in memory (a visitor's upload, a provider's download) as a ready file. */
  async saveFile(
    clientId: string,
    ownerRef: string,
    file: { name: string; mime: string; bytes: Buffer },
  ): Promise<StoredAttachment> {
    return this.saveStream(
      clientId,
      ownerRef,
      { name: file.name, mime: file.mime },
      Readable.from([file.bytes]),
    );
  }

  /**
   * Streams a file into storage, then records it as ready: a row never points at a file
   * that is not there. Refuses empty files and files over 100 MB.
   */
  async saveStream(
    clientId: string,
    ownerRef: string,
    file: { name: string; mime: string },
    content: Readable,
  ): Promise<StoredAttachment> {
    const fileId = randomUUID();
    const key = { clientId, fileId };
    const { size } = await this.write(key, content);
    if (size === 0) {
      await this.storage.remove(key);
      throw badRequest(mediaErrors.emptyFile);
    }
    try {
      const row = await withTenant(this.db, clientId, (tx) =>
        insertMediaFile(tx, {
          id: fileId,
          clientId,
          ownerRef,
          name: mediaFileName(file.name, this.now()),
          mime: mediaTypeOf(file.mime) || 'application/octet-stream',
          size,
          status: 'READY',
        }),
      );
      return attachmentOf(row);
    } catch (error) {
      await this.storage.remove(key);
      throw error;
    }
  }

  /** A complete file of the client with its bytes, or null. */
  async read(clientId: string, fileId: string): Promise<OpenedMedia | null> {
    const file = await this.findReady(clientId, fileId);
    if (!file) return null;
    const stored = await this.storage.read({ clientId, fileId });
    return stored ? { file, ...stored } : null;
  }

  /** Opens a file through a signed read link: 403 for a forged or expired link, 404 when gone. */
  async readSigned(fileId: string, link: SignedLink): Promise<OpenedMedia> {
    const row = uuidPattern.test(fileId) ? await findMediaFileForSignedLink(this.db, fileId) : undefined;
    if (!row || !this.links.verify(purposes.read, [row.clientId, row.id], link.expires, link.signature))
      throw forbidden(mediaErrors.linkInvalid);
    const opened = row.status === 'READY' ? await this.read(row.clientId, row.id) : null;
    if (!opened) throw notFound(mediaErrors.mediaNotAvailable);
    return opened;
  }

  /** A complete file of the client, optionally only if `ownerRef` uploaded it; null otherwise. */
  async findReady(clientId: string, fileId: string, ownerRef?: string): Promise<StoredAttachment | null> {
    if (!uuidPattern.test(fileId)) return null;
    const row = await withTenant(this.db, clientId, (tx) => findMediaFile(tx, clientId, fileId));
    if (!row || row.status !== 'READY' || (ownerRef !== undefined && row.ownerRef !== ownerRef)) return null;
    return attachmentOf(row);
  }

  async resolve(
    clientId: string,
    ownerRef: string,
    fileIds: ReadonlyArray<string>,
  ): Promise<StoredAttachment[]> {
    const wanted = [...new Set(fileIds)];
    if (wanted.some((id) => !uuidPattern.test(id))) throw badRequest(mediaErrors.attachmentNotFound);
    const rows = await withTenant(this.db, clientId, (tx) =>
      findReadyFilesOfOwner(tx, clientId, ownerRef, wanted),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return wanted.map((id) => {
      const row = byId.get(id);
      if (!row) throw badRequest(mediaErrors.attachmentNotFound);
      return attachmentOf(row);
    });
  }

  linkOf(clientId: string, attachment: { id: string; url?: string }): string {
    if (attachment.url) return attachment.url;
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    const gridEnd = (Math.floor(nowSeconds / readLinkGridSeconds) + 1) * readLinkGridSeconds;
    const expires = gridEnd + mediaLimits.readLinkTtlSeconds;
    const signature = this.links.sign(purposes.read, [clientId, attachment.id], expires);
    return `/api/media/${attachment.id}?expires=${expires}&signature=${signature}`;
  }

  /** A stored file as the API shows it, with a link. */
  viewOf(clientId: string, file: StoredAttachment): StoredFileView {
    return {
      id: file.id,
      name: file.name,
      mime: file.mime,
      size: file.size,
      url: this.linkOf(clientId, file),
    };
  }

  /**
   * A readable link for a media URL a message carries (`GET /api/csp/image`): our own
   * links are signed again; a provider's link goes to the resolver of its host. Anything
   * else, another client's file, or a provider no resolver serves: 'Media not available'.
   */
  async readableLink(clientId: string, media: string, hint: { mime?: string } = {}): Promise<string> {
    let url: URL;
    try {
      url = new URL(media, 'http://media.invalid');
    } catch {
      throw notFound(mediaErrors.mediaNotAvailable);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notFound(mediaErrors.mediaNotAvailable);
    if (this.providerHosts.some((host) => hostMatches(url.hostname, host))) {
      const resolver = this.resolvers.find((candidate) =>
        candidate.hosts.some((host) => hostMatches(url.hostname, host)),
      );
      const stored = resolver ? await resolver.resolve({ clientId, url, mime: hint.mime }) : null;
      if (!stored) throw notFound(mediaErrors.mediaNotAvailable);
      return this.linkOf(clientId, { id: stored.id });
    }
    const own = url.pathname.match(ownMediaPath);
    const file = own ? await this.findReady(clientId, own[1]) : null;
    if (!file) throw notFound(mediaErrors.mediaNotAvailable);
    return this.linkOf(clientId, file);
  }

  private async write(key: { clientId: string; fileId: string }, content: Readable) {
    try {
      return await this.storage.write(key, content, { maxBytes: mediaLimits.uploadMaxBytes });
    } catch (error) {
      if (error instanceof FileTooLargeError) throw new HttpError(413, mediaErrors.fileTooLarge);
      throw error;
    }
  }
}
