import { visitorChatLimits, visitorTokenAudience } from '@app/contracts';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

/** Who a visitor is, as their signed token says. */
export const visitorClaims = z.object({
  widgetId: z.string().uuid(),
  clientId: z.string().uuid(),
  channelAccountId: z.string().uuid(),
  visitorId: z.string().uuid(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The pre-chat form's extra answers, by customized-data key, for the first ticket. */
  fields: z.record(z.string(), z.string()).default({}),
});
export type VisitorClaims = z.infer<typeof visitorClaims>;
type VisitorClaimsInput = z.input<typeof visitorClaims>;

/** A different issuer from the agents' tokens, so neither kind passes for the other. */
const issuer = 'omni-inbox-livechat';

/**
 * Signs and verifies visitor tokens: HS256 with the server's JWT secret, audience
 * `livechat-visitor`. They are long-lived because the visitor has no password to sign in
 * again with: the token in their browser is their identity.
 */
export class VisitorTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: VisitorClaimsInput): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + visitorChatLimits.tokenTtlDays * 86_400_000);
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(visitorTokenAudience)
      .setSubject(claims.visitorId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, expiresAt };
  }

  /** The visitor, or null when the token is missing, forged, expired or of another kind. */
  async verify(token: string | undefined | null): Promise<VisitorClaims | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer,
        audience: visitorTokenAudience,
        algorithms: ['HS256'],
      });
      const parsed = visitorClaims.safeParse(payload);
      return parsed.success && payload.sub === parsed.data.visitorId ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
