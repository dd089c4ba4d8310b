import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { SecretBox } from '../../platform/secrets/secret-box';

/** What a sign-in challenge token allows: entering a code, or a first forced activation. */
export type MfaChallengePurpose = 'mfa-verify' | 'mfa-setup';

export interface MfaChallenge {
  userId: string;
  clientId: string;
  purpose: MfaChallengePurpose;
}

const issuer = 'omni-inbox';
/** A challenge lives long enough to open the app and type a code, and no longer. */
export const mfaChallengeTtlSeconds = 300;

/**
 * Keys derived from the server's JWT secret for 2-step verification: one seals TOTP
 * secrets at rest (AES-256-GCM), another signs the short-lived sign-in challenges.
 * Separate derivations keep a challenge from ever passing as an access token and a
 * database dump from revealing secrets without the server's key.
 */
export class MfaKeys {
  private readonly box: SecretBox;
  private readonly challengeKey: Uint8Array;

  constructor(jwtSecret: string) {
    this.box = new SecretBox(jwtSecret, 'mfa-secret-seal/v1');
    this.challengeKey = createHmac('sha256', jwtSecret).update('mfa-challenge/v1').digest();
  }

  /** Seals a secret as `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  seal(plain: string): string {
    return this.box.seal(plain);
  }

  /** Opens a sealed secret; null when it was tampered with or sealed under another key. */
  open(sealed: string): string | null {
    return this.box.open(sealed);
  }

  /** Signs a challenge for the second sign-in step. */
  signChallenge(challenge: MfaChallenge): Promise<string> {
    return new SignJWT({ cid: challenge.clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(challenge.purpose)
      .setSubject(challenge.userId)
      .setIssuedAt()
      .setExpirationTime(`${mfaChallengeTtlSeconds}s`)
      .sign(this.challengeKey);
  }

  /** The challenge of a token for this purpose, or null when forged, expired or for another use. */
  async verifyChallenge(
    token: string | undefined,
    purpose: MfaChallengePurpose,
  ): Promise<MfaChallenge | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, this.challengeKey, {
        issuer,
        audience: purpose,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') return null;
      return { userId: payload.sub, clientId: payload.cid, purpose };
    } catch {
      return null;
    }
  }
}
