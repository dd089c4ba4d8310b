import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA-1, 30-second steps,
 * six digits, the parameters every authenticator app uses by default. Written here with
 * node:crypto so the sign-in path carries no third-party crypto.
 */
export const totpStepSeconds = 30;
export const totpDigits = 6;

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps expect for secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += base32Alphabet[(value << (5 - bits)) & 31];
  return output;
}

/** Decodes base32, forgiving case, spaces and padding as people copy secrets by hand. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error('Invalid base32 character');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new 160-bit secret (the HMAC-SHA-1 block the RFC recommends), base32-encoded. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The HOTP value of one counter (RFC 4226 §5.3, dynamic truncation). */
export function hotp(key: Buffer, counter: number, digits = totpDigits, algorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac(algorithm, key).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return (binary % 10 ** digits).toString().padStart(digits, '0');
}

/** The code shown by the app at a moment (milliseconds since the epoch). */
export function totpAt(secretBase32: string, atMs: number = Date.now()): string {
  return hotp(base32Decode(secretBase32), Math.floor(atMs / 1000 / totpStepSeconds));
}

/**
 * Whether the code matches the step of `atMs` or one step either side: phones drift and
 * people type slowly, so ±30 s is accepted, as RFC 6238 §5.2 suggests.
 */
export function verifyTotp(secretBase32: string, code: string, atMs: number = Date.now()): boolean {
  return matchTotpStep(secretBase32, code, atMs) !== null;
}

/**
 * The time step the code belongs to (the step of `atMs` or one either side), or null. The
 * caller records the step, so a code seen once cannot be replayed inside its window.
 */
export function matchTotpStep(secretBase32: string, code: string, atMs: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretBase32);
  const step = Math.floor(atMs / 1000 / totpStepSeconds);
  let matched: number | null = null;
  // Every window is checked, so the time taken does not say which step matched.
  for (const offset of [-1, 0, 1]) {
    const expected = Buffer.from(hotp(key, step + offset));
    if (timingSafeEqual(expected, Buffer.from(code))) matched = step + offset;
  }
  return matched;
}

/** The otpauth:// URL an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUrl(options: { issuer: string; account: string; secret: string }): string {
  const label = encodeURIComponent(`${options.issuer}:${options.account}`);
  const query = new URLSearchParams({
    secret: options.secret,
    issuer: options.issuer,
    algorithm: 'SHA1',
    digits: String(totpDigits),
    period: String(totpStepSeconds),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
