import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { pushLimits } from '@app/contracts';

/**
 * The application server's VAPID identity (RFC 8292): the key pair push services use to
 * tell our pushes from anyone else's, and the short-lived ES256 tokens that prove it.
 */
export class VapidKeys {
  private readonly privateKey: KeyObject;
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    /** Base64url uncompressed P-256 point (65 bytes): what browsers subscribe with. */
    readonly publicKey: string,
    privateKey: string,
    private readonly subject: string,
  ) {
    const point = Buffer.from(publicKey, 'base64url');
    if (point.length !== 65 || point[0] !== 4) throw new Error('VAPID public key must be 65 bytes');
    this.privateKey = createPrivateKey({
      format: 'jwk',
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
        d: privateKey,
      },
    });
  }

  /**
   * The `Authorization` header for a push to this endpoint: `vapid t=<jwt>, k=<key>`. One
   * token per push service origin is reused until an hour before it expires.
   */
  authorization(endpoint: string, now = Date.now()): string {
    const audience = new URL(endpoint).origin;
    let cached = this.tokens.get(audience);
    if (!cached || cached.expiresAt - now < 3_600_000) {
      const expiresAt = now + pushLimits.vapidTokenSeconds * 1000;
      cached = { token: this.signToken(audience, Math.floor(expiresAt / 1000)), expiresAt };
      this.tokens.set(audience, cached);
    }
    return `vapid t=${cached.token}, k=${this.publicKey}`;
  }

  private signToken(audience: string, expiresAtSeconds: number): string {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ typ: 'JWT', alg: 'ES256' })}.${encode({
      aud: audience,
      exp: expiresAtSeconds,
      sub: this.subject,
    })}`;
    // JWS wants the raw r||s signature, not DER.
    const signature = sign('sha256', Buffer.from(unsigned), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${unsigned}.${signature.toString('base64url')}`;
  }
}
