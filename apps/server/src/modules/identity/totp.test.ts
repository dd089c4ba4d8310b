import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUrl, totpAt, verifyTotp } from './totp';

// The RFC's shared secret, the ASCII string "12345678901234567890".
const rfcKey = Buffer.from('12345678901234567890', 'ascii');
const rfcSecret = base32Encode(rfcKey);

describe('TOTP (RFC 6238, SHA-1)', () => {
  it('matches the RFC 4226 appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583'];
    expect(expected.map((_, counter) => hotp(rfcKey, counter))).toEqual(expected);
  });

  it('matches the RFC 6238 appendix B test vectors (8 digits, SHA-1)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(hotp(rfcKey, Math.floor(seconds / 30), 8)).toBe(code);
      // Six digits are the last six of the eight.
      expect(totpAt(rfcSecret, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it('accepts one step either side and nothing further', () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(rfcSecret, totpAt(rfcSecret, now), now)).toBe(true);
    expect(verifyTotp(rfcSecret, totpAt(rfcSecret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(rfcSecret, totpAt(rfcSecret, now + 30_000), now)).toBe(true);
    expect(verifyTotp(rfcSecret, totpAt(rfcSecret, now - 90_000), now)).toBe(false);
    expect(verifyTotp(rfcSecret, '12345', now)).toBe(false);
    expect(verifyTotp(rfcSecret, 'abcdef', now)).toBe(false);
  });

  it('round-trips base32 and builds an otpauth URL apps can read', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi==').toString()).toBe('foobar');
    const url = otpauthUrl({ issuer: 'Omni Inbox', account: 'a@b.test', secret: 'ABC' });
    expect(url).toMatch(/^otpauth:\/\/totp\/Omni%20Inbox%3Aa%40b\.test\?secret=ABC&issuer=Omni/);
    expect(url).toContain('digits=6');
  });
});
