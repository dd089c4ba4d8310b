import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC signatures for links that carry their own authority (a presigned upload, a media
 * link an <img> can load without a bearer token). The purpose is part of what is signed,
 * so a read link can never be used to upload, nor the other way round.
 */
export class SignedLinks {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own, so that a signature here is never a valid signature elsewhere.
    this.key = createHmac('sha256', secret).update('signed-links').digest();
  }

  sign(purpose: string, parts: ReadonlyArray<string>, expiresAt: number): string {
    return createHmac('sha256', this.key)
      .update([purpose, ...parts, String(expiresAt)].join('\n'))
      .digest('base64url');
  }

  /** True when the signature matches and `expiresAt` (epoch seconds) has not passed. */
  verify(
    purpose: string,
    parts: ReadonlyArray<string>,
    expiresAt: number,
    signature: string,
    now: Date = new Date(),
  ): boolean {
    if (!Number.isFinite(expiresAt) || expiresAt * 1000 < now.getTime()) return false;
    const expected = Buffer.from(this.sign(purpose, parts, expiresAt));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
