import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertStorageKey,
  type FileStorage,
  FileTooLargeError,
  type StorageKey,
  type StoredObject,
} from './file-storage';

/**
 * Files on the local disk at `<root>/<clientId>/<fileId>` (root is DATA_DIR/media). A
 * write streams to a temporary name in the same folder and is renamed into place only
 * when complete, so a crash or an oversized upload never leaves a partial file readable.
 */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: StorageKey): string {
    assertStorageKey(key);
    return path.join(this.root, key.clientId.toLowerCase(), key.fileId.toLowerCase());
  }

  async write(key: StorageKey, content: Readable, options: { maxBytes?: number } = {}) {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = path.join(path.dirname(target), `.upload-${key.fileId}-${randomUUID()}`);
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) done(new FileTooLargeError(maxBytes));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(content, counter, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size };
  }

  async read(key: StorageKey): Promise<StoredObject | null> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: StorageKey): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
