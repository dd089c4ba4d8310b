import { createHash, randomBytes } from 'node:crypto';
import { type OidcErrorKey, oidcExchangeInvalidMessage, type SignInResponse } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { badRequest } from '../../platform/http/http-errors';
import { type AuthService, isSignInLocked, type RequestOrigin } from './auth.service';
import type { MfaKeys } from './mfa.keys';
import { type OidcClient, OidcProviderError } from './oidc.client';
import { findUserForSignIn } from './user.repository';

/** A started sign-in waits this long for the user at Google; the exchange code lives a minute. */
const pendingTtlMs = 10 * 60_000;
const exchangeTtlMs = 60_000;

interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
  redirect: string | null;
  expiresAt: number;
}

interface ReadySignIn {
  response: SignInResponse;
  redirect: string | null;
  expiresAt: number;
}

const randomToken = () => randomBytes(32).toString('base64url');

/** Only an in-app path may be a landing target, never another site (`//host`, `/\host`). */
export function safeInAppPath(value: string | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/**
 * Google sign-in over OpenID Connect (issue 14): authorization code with PKCE, then the
 * same steps as a password sign-in after the password (lockout, status, 2-step).
 *
 * The state, nonce and verifier of a started sign-in, and the one-time exchange code that
 * hands the result to the web app, are kept in this process's memory: they live minutes,
 * and a restart only means the user clicks the button again. With several web processes,
 * the load balancer must keep a browser on one process for the round trip.
 */
export class OidcService {
  private readonly pending = new Map<string, PendingSignIn>();
  private readonly ready = new Map<string, ReadySignIn>();

  constructor(
    private readonly db: Database,
    private readonly client: OidcClient,
    private readonly auth: AuthService,
    readonly _mfaKeys: MfaKeys,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Starts a sign-in: answers the issuer's authorization URL to redirect the browser to. */
  async start(redirectUri: string, redirect: string | undefined): Promise<string> {
    this.sweep();
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken();
    const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
    this.pending.set(state, {
      nonce,
      codeVerifier,
      redirect: safeInAppPath(redirect),
      expiresAt: Date.now() + pendingTtlMs,
    });
    return this.client.authorizationUrl({ redirectUri, state, nonce, codeChallenge });
  }

  /**
   * Finishes the round trip at the issuer and answers where the browser goes next: the
   * sign-in page with a one-time code, or with the key of what went wrong. Tokens never
   * travel in a URL.
   */
  async callback(
    query: { code?: string; state?: string; error?: string },
    redirectUri: string,
    origin: RequestOrigin,
  ): Promise<string> {
    const pending = query.state ? this.pending.get(query.state) : undefined;
    // A state is good for one callback, whatever its outcome.
    if (query.state) this.pending.delete(query.state);
    if (!pending || pending.expiresAt < Date.now() || !query.code || query.error) {
      return failureLocation('signInFailed');
    }
    let identity: Awaited<ReturnType<OidcClient['exchange']>>;
    try {
      identity = await this.client.exchange({
        code: query.code,
        redirectUri,
        codeVerifier: pending.codeVerifier,
        nonce: pending.nonce,
      });
    } catch (error) {
      if (!(error instanceof OidcProviderError)) throw error;
      this.logger.warn({ reason: error.message }, 'oidc sign-in refused');
      return failureLocation('signInFailed');
    }
    if (!identity.email || !identity.emailVerified) return failureLocation('emailUnverified');

    const response = await this.signIn(identity.email, origin);
    if (typeof response === 'string') return failureLocation(response);
    const code = randomToken();
    this.ready.set(code, { response, redirect: pending.redirect, expiresAt: Date.now() + exchangeTtlMs });
    const target = new URLSearchParams({ oidc: code });
    if (pending.redirect) target.set('redirect', pending.redirect);
    return `/login?${target.toString()}`;
  }

  /** Trades the one-time code for the sign-in answer; a second try with the same code fails. */
  exchange(code: string): SignInResponse {
    const ready = this.ready.get(code);
    this.ready.delete(code);
    if (!ready || ready.expiresAt < Date.now()) throw badRequest(oidcExchangeInvalidMessage);
    return ready.response;
  }

  /**
   * The password sign-in after its password check: a locked or inactive account is
   * refused, 2-step (or the client's forced setup) answers a challenge, else a session.
   */
  private async signIn(email: string, origin: RequestOrigin): Promise<SignInResponse | OidcErrorKey> {
    const user = await findUserForSignIn(this.db, email);
    if (!user || user.deletedAt) return 'emailNotRegistered';
    if (isSignInLocked(user)) return 'accountLocked';
    if (user.status !== 'ACTIVE') return 'userInactive';
    return (await this.auth.continueSignIn(user, origin)) ?? 'emailNotRegistered';
  }

  /** Drops expired entries, so abandoned sign-ins do not pile up in memory. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.pending) if (entry.expiresAt < now) this.pending.delete(key);
    for (const [key, entry] of this.ready) if (entry.expiresAt < now) this.ready.delete(key);
  }
}

function failureLocation(key: OidcErrorKey): string {
  return `/login?${new URLSearchParams({ oidcError: key }).toString()}`;
}
