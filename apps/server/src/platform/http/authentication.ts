import { type AccessTokenClaims, type AppAbility, accessTokenClaims, buildAbility } from '@app/contracts';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';

/** Who is calling, read from a verified access token. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  clientId: string;
  role: AccessTokenClaims['role'];
  email: string;
  claims: AccessTokenClaims;
  ability: AppAbility;
}

const issuer = 'omni-inbox';

/** How many verified tokens are remembered; the oldest is forgotten first. */
const verifiedTokensKept = 10_000;
/** How many distinct abilities are shared between tokens (most users share a role's). */
const abilitiesKept = 1_000;

/**
 * Signs and verifies the short-lived access tokens (HS256). A token verified once is
 * remembered until it expires: its signature covers every claim, so the same string always
 * verifies to the same caller, and only the expiry needs checking again.
 */
export class AccessTokens {
  private readonly key: Uint8Array<ArrayBuffer>;
  /** The HMAC key imported once; jose would import raw bytes again on every call. */
  private readonly verifyKey: Promise<CryptoKey>;
  private readonly verified = new Map<string, { context: AuthContext; expiresAt: number }>();
  /** An ability takes some 8 KB: tokens whose access claims are equal share one. */
  private readonly abilities = new Map<string, AppAbility>();

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
    this.verifyKey = crypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
  }

  async sign(claims: AccessTokenClaims): Promise<string> {
    // The spec gives `sub` an object shape (sub.clientTimezone), which JWTPayload does not model.
    return new SignJWT({ ...claims } as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The caller, or null when the token is missing, forged, expired or malformed. */
  async verify(token: string | undefined | null): Promise<AuthContext | null> {
    if (!token) return null;
    const remembered = this.verified.get(token);
    if (remembered) {
      // jose's rule: a token is expired once the current second reaches `exp`.
      if (Math.floor(Date.now() / 1000) < remembered.expiresAt) return { ...remembered.context };
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await this.verifyKey, { issuer, algorithms: ['HS256'] });
      const claims = accessTokenClaims.parse(payload);
      const context: AuthContext = {
        userId: claims.uid,
        sessionId: claims.sid,
        clientId: claims.clientId,
        role: claims.role,
        email: claims.email,
        claims,
        ability: this.abilityOf(claims),
      };
      if (typeof payload.exp === 'number') this.remember(token, context, payload.exp);
      return { ...context };
    } catch {
      return null;
    }
  }

  private remember(token: string, context: AuthContext, expiresAt: number): void {
    forgetOldest(this.verified, verifiedTokensKept);
    this.verified.set(token, { context, expiresAt });
  }

  private abilityOf(claims: AccessTokenClaims): AppAbility {
    // Exactly what buildAbility reads.
    const key = JSON.stringify([
      claims.role,
      claims.accountCountry,
      claims.featuresAccessPermissions,
      claims.featuresPermissions,
    ]);
    let ability = this.abilities.get(key);
    if (!ability) {
      ability = buildAbility(claims);
      forgetOldest(this.abilities, abilitiesKept);
      this.abilities.set(key, ability);
    }
    return ability;
  }
}

/** Makes room for one more entry in a map kept in insertion order. */
function forgetOldest<Value>(map: Map<string, Value>, limit: number): void {
  if (map.size < limit) return;
  const oldest = map.keys().next().value;
  if (oldest !== undefined) map.delete(oldest);
}

/** The bearer token of an Authorization header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
}
