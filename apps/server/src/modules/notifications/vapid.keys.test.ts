import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { VapidKeys } from './vapid.keys';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vapid-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('VAPID keys from the configuration', () => {
  it('are generated once into DATA_DIR/secrets.json and kept across restarts', () => {
    const dataDir = freshDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(Buffer.from(first.vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.vapid.privateKey, 'base64url')).toHaveLength(32);
    expect(first.vapid.subject).toMatch(/^mailto:/);
    const again = loadConfig({ DATA_DIR: dataDir });
    expect(again.vapid).toEqual(first.vapid);
    expect(again.jwtSecret).toBe(first.jwtSecret);
    // The pair is usable: it signs a token.
    const keys = new VapidKeys(first.vapid.publicKey, first.vapid.privateKey, first.vapid.subject);
    expect(keys.authorization('https://push.example.net/x')).toMatch(/^vapid t=.+\..+\..+, k=/);
  });

  it('are added to a secrets file written before push existed, keeping its JWT secret', () => {
    const dataDir = freshDir();
    const file = path.join(dataDir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ jwtSecret: 'j'.repeat(64) }));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.jwtSecret).toBe('j'.repeat(64));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      jwtSecret: 'j'.repeat(64),
      vapidPublicKey: config.vapid.publicKey,
    });
  });

  it('come from the environment when set; one without the other is refused', () => {
    const generated = loadConfig({ DATA_DIR: freshDir() }).vapid;
    const dataDir = freshDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      VAPID_PUBLIC_KEY: generated.publicKey,
      VAPID_PRIVATE_KEY: generated.privateKey,
      VAPID_SUBJECT: 'https://example.test/contact',
    });
    expect(config.vapid).toEqual({ ...generated, subject: 'https://example.test/contact' });
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_PUBLIC_KEY: generated.publicKey })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, VAPID_SUBJECT: 'ops@example.test' })).toThrow(
      /VAPID_SUBJECT/,
    );
  });
});
