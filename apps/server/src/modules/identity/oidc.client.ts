import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';

/** The parts of the issuer's discovery document this sign-in uses. */
interface DiscoveryDocument {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What a verified id_token tells about the person who signed in. */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** Raised for anything the provider answered that cannot be trusted or used. */
export class OidcProviderError extends Error {}

/** Discovery is cached this long: issuers rotate endpoints rarely, keys are refetched by jose. */
const discoveryTtlMs = 60 * 60_000;

/**
 * Talks to one OpenID Connect issuer: discovery, the authorization URL, the code
 * exchange (client secret + PKCE verifier) and id_token verification against its JWKS.
 */
export class OidcClient {
  private discovery: { document: DiscoveryDocument; fetchedAt: number } | null = null;
  private keys: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  /** The authorization-code request with PKCE (S256), state and nonce. */
  async authorizationUrl(request: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeChallenge: string;
  }): Promise<string> {
    const { authorization_endpoint } = await this.document();
    const url = new URL(authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('scope', 'openid email profile');
    url.searchParams.set('state', request.state);
    url.searchParams.set('nonce', request.nonce);
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    return url.toString();
  }

  /** Trades the code for tokens and answers the verified identity of the id_token. */
  async exchange(request: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
    nonce: string;
  }): Promise<OidcIdentity> {
    const document = await this.document();
    const response = await fetch(document.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: request.code,
        redirect_uri: request.redirectUri,
        code_verifier: request.codeVerifier,
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new OidcProviderError(`token endpoint answered ${response.status}`);
    const tokens = (await response.json()) as { id_token?: unknown };
    if (typeof tokens.id_token !== 'string') throw new OidcProviderError('no id_token in the token response');
    return this.verifyIdToken(tokens.id_token, request.nonce, document);
  }

  private async verifyIdToken(
    idToken: string,
    nonce: string,
    document: DiscoveryDocument,
  ): Promise<OidcIdentity> {
    this.keys ??= createRemoteJWKSet(new URL(document.jwks_uri));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys, {
        issuer: document.issuer,
        audience: this.settings.clientId,
        algorithms: ['RS256', 'ES256'],
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      throw new OidcProviderError(`id_token rejected: ${(error as Error).message}`);
    }
    // The nonce ties the token to this browser's request, so a token from another flow is refused.
    if (payload.nonce !== nonce) throw new OidcProviderError('id_token nonce mismatch');
    return {
      subject: String(payload.sub),
      email: typeof payload.email === 'string' ? payload.email : null,
      // Google sends a boolean; some issuers send the string "true".
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    };
  }

  private async document(): Promise<DiscoveryDocument> {
    if (this.discovery && Date.now() - this.discovery.fetchedAt < discoveryTtlMs) {
      return this.discovery.document;
    }
    const base = this.settings.issuer.replace(/\/$/, '');
    const response = await fetch(`${base}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new OidcProviderError(`discovery answered ${response.status}`);
    const document = (await response.json()) as Partial<DiscoveryDocument>;
    if (document.issuer !== base && document.issuer !== this.settings.issuer) {
      throw new OidcProviderError('discovery issuer does not match the configured issuer');
    }
    if (!document.authorization_endpoint || !document.token_endpoint || !document.jwks_uri) {
      throw new OidcProviderError('discovery document is incomplete');
    }
    this.discovery = { document: document as DiscoveryDocument, fetchedAt: Date.now() };
    return this.discovery.document;
  }
}
