import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ServerEnv, serverEnv } from './env';

/** The validated configuration the composition root hands to every part. */
export interface AppConfig extends ServerEnv {
  dataDir: string;
  jwtSecret: string;
  /** Web Push sender keys (base64url: 65-byte public point, 32-byte private scalar). */
  vapid: { publicKey: string; privateKey: string; subject: string };
  databaseDriver: 'pglite' | 'postgres';
}

/** Raised when the environment is invalid; its message names each bad variable. */
export class ConfigError extends Error {}

interface StoredSecrets {
  jwtSecret?: string;
  vapidPublicKey?: string;
  vapidPrivateKey?: string;
}

/** A fresh P-256 key pair for VAPID, in the encodings the Push API and RFC 8292 use. */
function generateVapidKeys(): { vapidPublicKey: string; vapidPrivateKey: string } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  return { vapidPublicKey: point.toString('base64url'), vapidPrivateKey: jwk.d ?? '' };
}

/**
 * Secrets absent from the environment are generated once and kept under DATA_DIR, so a
 * fresh start needs no set-up and a restart keeps every session valid.
 */
function loadOrCreateSecrets(dataDir: string): Required<StoredSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  const stored: StoredSecrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const hasJwt = Boolean(stored.jwtSecret && stored.jwtSecret.length >= 32);
  const hasVapid = Boolean(stored.vapidPublicKey && stored.vapidPrivateKey);
  const secrets = {
    jwtSecret: hasJwt ? (stored.jwtSecret as string) : randomBytes(48).toString('base64url'),
    ...(hasVapid
      ? { vapidPublicKey: stored.vapidPublicKey as string, vapidPrivateKey: stored.vapidPrivateKey as string }
      : generateVapidKeys()),
  };
  if (hasJwt && hasVapid) return secrets;
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

/** Reads and validates the environment; throws ConfigError naming the variables at fault. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(serverEnv.shape);
  const input = Object.fromEntries(
    known.filter((key) => env[key] !== undefined && env[key] !== '').map((key) => [key, env[key]]),
  );
  const parsed = serverEnv.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const { JWT_SECRET, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = parsed.data;
  if (Boolean(VAPID_PUBLIC_KEY) !== Boolean(VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both, or neither',
    );
  }
  const stored =
    JWT_SECRET && VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY ? undefined : loadOrCreateSecrets(dataDir);
  return {
    ...parsed.data,
    dataDir,
    jwtSecret: JWT_SECRET ?? (stored?.jwtSecret as string),
    vapid: {
      publicKey: VAPID_PUBLIC_KEY ?? (stored?.vapidPublicKey as string),
      privateKey: VAPID_PRIVATE_KEY ?? (stored?.vapidPrivateKey as string),
      subject: parsed.data.VAPID_SUBJECT,
    },
    databaseDriver: parsed.data.DATABASE_URL ? 'postgres' : 'pglite',
  };
}
