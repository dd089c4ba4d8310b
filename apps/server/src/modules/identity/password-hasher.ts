import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes), the OWASP baseline. */
const algorithm = 2; // Algorithm.Argon2id; a const enum cannot be imported under isolatedModules

export async function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a password nobody has: verifying against it costs what a real check costs. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-for-unknown-users');
  return decoyHash;
}
