import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ServerEnv, serverEnv } from '@app/contracts';

/** The validated configuration the composition root hands to every part. */
export interface AppConfig extends ServerEnv {
  dataDir: string;
  jwtSecret: string;
  databaseDriver: 'pglite' | 'postgres';
}

/** Raised when the environment is invalid; its message names each bad variable. */
export class ConfigError extends Error {}

interface StoredSecrets {
  jwtSecret?: string;
}

/**
 * Secrets absent from the environment are generated once and kept under DATA_DIR, so a
 * fresh start needs no set-up and a restart keeps every session valid.
 */
function loadOrCreateSecrets(dataDir: string): Required<StoredSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  const stored: StoredSecrets = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  if (stored.jwtSecret && stored.jwtSecret.length >= 32) return { jwtSecret: stored.jwtSecret };
  const secrets = { jwtSecret: randomBytes(48).toString('base64url') };
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
  const jwtSecret = parsed.data.JWT_SECRET ?? loadOrCreateSecrets(dataDir).jwtSecret;
  return {
    ...parsed.data,
    dataDir,
    jwtSecret,
    databaseDriver: parsed.data.DATABASE_URL ? 'postgres' : 'pglite',
  };
}
