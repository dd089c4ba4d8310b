import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileTooLargeError } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

const root = mkdtempSync(path.join(os.tmpdir(), 'storage-test-'));
const storage = new LocalFileStorage(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function textOf(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('LocalFileStorage', () => {
  it('keeps a file under <root>/<clientId>/<fileId>, reads it back and removes it', async () => {
    const key = { clientId: randomUUID(), fileId: randomUUID() };
    const { size } = await storage.write(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(size).toBe(11);
    expect(readdirSync(path.join(root, key.clientId))).toEqual([key.fileId]);
    const stored = await storage.read(key);
    expect(stored?.size).toBe(11);
    expect(await textOf(stored!.stream)).toBe('hello world');
    await storage.remove(key);
    expect(await storage.read(key)).toBeNull();
  });

  it('leaves nothing behind when the content passes the limit', async () => {
    const key = { clientId: randomUUID(), fileId: randomUUID() };
    await expect(
      storage.write(key, Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(readdirSync(path.join(root, key.clientId))).toEqual([]);
    expect(await storage.read(key)).toBeNull();
  });

  it('refuses keys that are not UUIDs, so no path can leave its folder', async () => {
    const clientId = randomUUID();
    await expect(storage.write({ clientId, fileId: '../../etc/passwd' }, Readable.from([]))).rejects.toThrow(
      'Storage keys are UUIDs',
    );
    await expect(storage.read({ clientId: '..', fileId: randomUUID() })).rejects.toThrow();
  });
});
