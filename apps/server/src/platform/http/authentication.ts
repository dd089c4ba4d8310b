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

/** Signs and verifies the short-lived access tokens (HS256). */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
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
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer, algorithms: ['HS256'] });
      const claims = accessTokenClaims.parse(payload);
      return {
        userId: claims.uid,
        sessionId: claims.sid,
        clientId: claims.clientId,
        role: claims.role,
        email: claims.email,
        claims,
        ability: buildAbility(claims),
      };
    } catch {
      return null;
    }
  }
}

/** The bearer token of an Authorization header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
}
