import { createHash, randomBytes } from 'node:crypto';
import {
  type ChangePasswordBody,
  errorMessages,
  eventTopics,
  type LoginBody,
  type LoginResponse,
  passwordPolicy,
  type SignInResponse,
  type TokenPair,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { appendEvent, rooms } from '../../platform/events/outbox';
import type { AccessTokens, AuthContext } from '../../platform/http/authentication';
import { badRequest, HttpError, unauthorized } from '../../platform/http/http-errors';
import { deleteSessionActivity } from './account-activity.repository';
import { countEnterableClients, countEnterableClientsOfRow } from './client-membership.repository';
import { endPersonSessions } from './client-membership.service';
import { claimsFor, presentUser } from './identity-claims';
import type { MfaKeys } from './mfa.keys';
import { clearSignInFailures, recordSignInFailure } from './mfa.repository';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password-hasher';
import {
  findRefreshTokenUnscoped,
  findSession,
  insertRefreshToken,
  insertSession,
  lockRefreshToken,
  markRefreshTokenUsed,
  revokeSession,
  sessionIsOpen,
} from './session.repository';
import {
  type ClientRow,
  credentialHolderId,
  findClient,
  findCredentialHolder,
  findUser,
  findUserForSignIn,
  findUserWithClient,
  type UserRow,
  updateUser,
} from './user.repository';

/** Tells the session's sockets (and anything else listening) that it has ended. */
function announceSessionRevoked(
  tx: Executor,
  event: { clientId: string; userId: string; sessionId: string; reason: string },
): Promise<bigint> {
  return appendEvent(tx, {
    clientId: event.clientId,
    topic: eventTopics.sessionRevoked,
    rooms: [rooms.user(event.userId)],
    payload: { sessionId: event.sessionId, reason: event.reason },
  });
}

/** How many earlier passwords a new one may not repeat. */
const passwordHistoryDepth = 5;

/**
 * How long a just-rotated refresh token may be presented again and still earn a successor:
 * long enough for a retry after a lost response, short enough that a stolen copy is caught.
 */
export const refreshGraceMs = 10_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface RequestOrigin {
  userAgent: string | null;
  ip: string | null;
}

/** Whether repeated failures have locked sign-in for now (issue 14, Sign-in security). */
export function isSignInLocked(user: Pick<UserRow, 'lockedUntil'>): boolean {
  return user.lockedUntil !== null && user.lockedUntil.getTime() > Date.now();
}

/** Sign-in, session refresh with rotation and theft detection, sign-out, password change. */
export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly tokens: AccessTokens,
    private readonly refreshTtlDays: number,
    private readonly mfaKeys: MfaKeys,
  ) {}

  /**
   * The password step of sign-in. A locked account answers 429 even with the right
   * password, after the same hash check, so neither the answer nor its timing tells
   * whether the password was right. With 2-step on, or required by the client and not
   * yet set up, no session opens here: the caller gets a short-lived challenge instead.
   */
  async login(body: LoginBody, origin: RequestOrigin): Promise<SignInResponse> {
    const user = await findUserForSignIn(this.db, body.email);
    // Unknown emails cost a hash check too, so timing does not tell which emails exist.
    const valid = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), body.password);
    if (!user) throw unauthorized(errorMessages.invalidCredentials);
    if (isSignInLocked(user)) throw new HttpError(429, errorMessages.tooManyRequests);
    if (!valid) {
      await withTenant(this.db, user.clientId, (tx) => recordSignInFailure(tx, user.clientId, user.id));
      throw unauthorized(errorMessages.invalidCredentials);
    }
    if (user.status !== 'ACTIVE') throw new HttpError(403, errorMessages.userInactive);
    const next = await this.continueSignIn(user, origin);
    if (!next) throw unauthorized(errorMessages.invalidCredentials);
    return next;
  }

  /**
   * Every sign-in after its first factor (a password, or a verified e-mail from the
   * identity provider): 2-step, or the client's forced setup, answers a challenge;
   * otherwise the session opens. Null when the user's client is gone. 2-step belongs to the
   * person (their credential holder); a client switch has proven it already (`mfaProven`),
   * so only a client that requires 2-step of a person without it still stops the way.
   */
  async continueSignIn(
    user: UserRow,
    origin: RequestOrigin,
    options: { mfaProven?: boolean } = {},
  ): Promise<SignInResponse | null> {
    const client = await withTenant(this.db, user.clientId, (tx) => findClient(tx, user.clientId));
    const credentials = await findCredentialHolder(this.db, user);
    if (!client || !credentials) return null;
    const challenge = { userId: user.id, clientId: user.clientId };
    const mfaOn = Boolean(credentials.mfaEnabledAt && credentials.mfaSecret);
    if (mfaOn && !options.mfaProven) {
      return {
        mfaRequired: true,
        mfaToken: await this.mfaKeys.signChallenge({ ...challenge, purpose: 'mfa-verify' }),
      };
    }
    if (!mfaOn && client.requireMfa) {
      return {
        mfaSetupRequired: true,
        mfaToken: await this.mfaKeys.signChallenge({ ...challenge, purpose: 'mfa-setup' }),
      };
    }
    return this.completeSignIn(user, origin);
  }

  /**
   * Opens a session for a user who passed every sign-in step (password, and the code
   * when 2-step is on); the run of failures ends here.
   */
  async completeSignIn(user: UserRow, origin: RequestOrigin): Promise<LoginResponse> {
    // The person's other clients live in other tenants: counted outside this one.
    const enableMultiClient = (await countEnterableClients(this.db, credentialHolderId(user))) > 1;
    return withTenant(this.db, user.clientId, async (tx) => {
      const client = await findClient(tx, user.clientId);
      if (!client) throw unauthorized(errorMessages.invalidCredentials);
      await clearSignInFailures(tx, user.clientId, user.id);
      const session = await insertSession(tx, {
        clientId: user.clientId,
        userId: user.id,
        userAgent: origin.userAgent?.slice(0, 300) ?? null,
        ip: origin.ip,
        expiresAt: this.refreshExpiry(),
      });
      const pair = await this.issuePair(tx, user, client, session, enableMultiClient);
      await appendEvent(tx, {
        clientId: user.clientId,
        topic: eventTopics.userSignedIn,
        rooms: [rooms.user(user.id)],
        payload: { userId: user.id, sessionId: session.id },
      });
      return { ...pair, user: presentUser(user), enableMultiClient };
    });
  }

  /**
   * Trades a refresh token for a new pair. Each token works once; presenting a used one
   * later means it was copied, so the whole session (every token of the family) is revoked.
   * A repeat within the grace window (a lost response, a second tab) gets its own working
   * successor instead. The token row is locked, so simultaneous repeats take turns.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const found = await findRefreshTokenUnscoped(this.db, hashToken(refreshToken));
    if (!found) throw unauthorized(errorMessages.sessionExpired);
    const { clientId, id: sessionId, userId } = found.session;
    // The person's other clients live in other tenants: counted before entering this one.
    const enableMultiClient = (await countEnterableClientsOfRow(this.db, userId)) > 1;

    const outcome = await withTenant(this.db, clientId, async (tx) => {
      const token = await lockRefreshToken(tx, clientId, found.token.id);
      const session = await findSession(tx, clientId, sessionId);
      const now = new Date();
      if (!token || !session || !sessionIsOpen(session, now) || token.expiresAt <= now)
        return 'closed' as const;
      if (token.usedAt && now.getTime() - token.usedAt.getTime() > refreshGraceMs) {
        if (await revokeSession(tx, clientId, sessionId, 'refresh token reused')) {
          await announceSessionRevoked(tx, { clientId, userId, sessionId, reason: 'refresh token reused' });
        }
        return 'reused' as const;
      }
      if (!token.usedAt) await markRefreshTokenUsed(tx, clientId, token.id);
      const account = await findUserWithClient(tx, clientId, userId);
      if (account?.user.status !== 'ACTIVE') return 'closed' as const;
      return this.issuePair(tx, account.user, account.client, session, enableMultiClient);
    });
    if (typeof outcome === 'string') throw unauthorized(errorMessages.sessionExpired);
    return outcome;
  }

  /**
   * Ends the session, drops its account-activity record and takes the agent offline
   * (core-inbox §4 Login); a client switch ends the session it leaves the same way.
   */
  async logout(caller: AuthContext, reason = 'signed out'): Promise<void> {
    await withTenant(this.db, caller.clientId, async (tx) => {
      await updateUser(tx, caller.clientId, caller.userId, { agentStatus: 'OFFLINE' });
      await appendEvent(tx, {
        clientId: caller.clientId,
        topic: eventTopics.agentStatusChanged,
        rooms: [rooms.client(caller.clientId)],
        payload: { userId: caller.userId, status: 'OFFLINE' },
      });
      await deleteSessionActivity(tx, caller.clientId, caller.sessionId);
      if (await revokeSession(tx, caller.clientId, caller.sessionId, reason)) {
        await announceSessionRevoked(tx, {
          clientId: caller.clientId,
          userId: caller.userId,
          sessionId: caller.sessionId,
          reason,
        });
      }
    });
  }

  /**
   * Changes the caller's password (core-inbox §8). The password is the person's, kept on
   * their credential holder (perhaps in another client); every session of every row of the
   * person ends, so they sign in again.
   */
  async changePassword(caller: AuthContext, body: ChangePasswordBody): Promise<void> {
    if (body.newPassword !== body.confirmPassword) throw badRequest(errorMessages.passwordMismatch);
    if (!passwordPolicy.safeParse(body.newPassword).success) throw badRequest(errorMessages.passwordFormat);
    const row = await withTenant(this.db, caller.clientId, (tx) =>
      findUser(tx, caller.clientId, caller.userId),
    );
    const user = row && (await findCredentialHolder(this.db, row));
    if (!user) throw unauthorized();
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
      throw badRequest(errorMessages.currentPasswordIncorrect);
    }
    for (const earlier of [user.passwordHash, ...user.passwordHistory]) {
      if (await verifyPassword(earlier, body.newPassword))
        throw badRequest(errorMessages.passwordAlreadyUsed);
    }
    const passwordHash = await hashPassword(body.newPassword);
    await withTenant(this.db, user.clientId, (tx) =>
      updateUser(tx, user.clientId, user.id, {
        passwordHash,
        passwordHistory: [user.passwordHash, ...user.passwordHistory].slice(0, passwordHistoryDepth),
      }),
    );
    await withTenant(this.db, caller.clientId, (tx) =>
      appendEvent(tx, {
        clientId: caller.clientId,
        topic: eventTopics.passwordChanged,
        rooms: [],
        payload: { userId: caller.userId },
      }),
    );
    await endPersonSessions(this.db, user.id, 'password changed');
  }

  private async issuePair(
    tx: Parameters<typeof insertRefreshToken>[0],
    user: UserRow,
    client: ClientRow,
    session: { id: string; expiresAt: Date },
    enableMultiClient: boolean,
  ): Promise<TokenPair> {
    const { id: sessionId, expiresAt: sessionExpiresAt } = session;
    const refreshToken = randomBytes(32).toString('base64url');
    await insertRefreshToken(tx, {
      clientId: client.id,
      sessionId,
      tokenHash: hashToken(refreshToken),
      expiresAt: sessionExpiresAt,
    });
    return {
      accessToken: await this.tokens.sign(claimsFor(user, client, sessionId, enableMultiClient)),
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.tokens.ttlSeconds,
      refreshTokenExpiresAt: sessionExpiresAt.toISOString(),
    };
  }

  private refreshExpiry(): Date {
    return new Date(Date.now() + this.refreshTtlDays * 86_400_000);
  }
}
