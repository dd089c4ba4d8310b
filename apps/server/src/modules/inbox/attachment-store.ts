/** A stored file as a message keeps it. */
export interface StoredAttachment {
  id: string;
  name: string;
  mime: string;
  size: number;
  /** A provider's own link, for media that stays at the provider until resolved. */
  url?: string;
}

/**
 * What the inbox needs from media storage: turning uploaded file ids into attachments the
 * sender may use, and links a browser of the same client can open. The media module
 * implements it; the inbox never reads media tables itself.
 */
export interface AttachmentStore {
  /**
   * The uploaded, complete files with these ids that `ownerRef` (`user:<id>` or
   * `identity:<id>`) uploaded in the client; throws a 400 naming the first that is not.
   */
  resolve(clientId: string, ownerRef: string, fileIds: ReadonlyArray<string>): Promise<StoredAttachment[]>;
  /** A link to the file that works for a limited time. */
  linkOf(clientId: string, attachment: { id: string; url?: string }): string;
}
