import type { Readable } from 'node:stream';

/** Where one file lives: its client's folder and its own id, both UUIDs the server made. */
export interface StorageKey {
  clientId: string;
  fileId: string;
}

/** A stored file's bytes, opened for reading. */
export interface StoredObject {
  stream: Readable;
  size: number;
}

/**
 * Somewhere to keep uploaded files: the local disk by default; an S3-compatible bucket
 * can implement the same three calls. A write is all or nothing: a failed or oversized
 * upload leaves no file behind, and a reader never sees half a file.
 */
export interface FileStorage {
  /** Streams the content in; resolves with its size. Rejects with FileTooLargeError past `maxBytes`. */
  write(key: StorageKey, content: Readable, options?: { maxBytes?: number }): Promise<{ size: number }>;
  /** The file, or null when there is none. */
  read(key: StorageKey): Promise<StoredObject | null>;
  /** Removes the file; a missing file is no error. */
  remove(key: StorageKey): Promise<void>;
}

/** The content passed the size a write allowed; nothing was kept. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Throws unless both parts are UUIDs: a key can then never climb out of its folder. */
export function assertStorageKey(key: StorageKey): void {
  if (!uuidPattern.test(key.clientId) || !uuidPattern.test(key.fileId))
    throw new Error('Storage keys are UUIDs');
}
