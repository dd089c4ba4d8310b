import { createHash, randomBytes } from 'node:crypto';
import {
  errorMessages,
  type LoginResponse,
  type MfaActivatedResponse,
  type MfaForcedActivationResponse,
  type MfaSetupResponse,
  type MfaStatusResponse,
} from '@app/contracts';
import QRCode from 'qrcode';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, forbidden, HttpError, unauthorized } from '../../platform/http/http-errors';
import { type AuthService, isSignInLocked, type RequestOrigin } from './auth.service';
import type { MfaChallengePurpose, MfaKeys } from './mfa.keys';
import { mayChangeMfaPolicy } from './mfa.policy';
import {
  claimTotpStep,
  disableMfa,
  enableMfa,
  recordSignInFailure,
  setClientRequiresMfa,
  storePendingMfaSecret,
  useRecoveryCode,
} from './mfa.repository';
import { generateTotpSecret, matchTotpStep, otpauthUrl, verifyTotp } from './totp';
import { findClient, findCredentialHolder, findUser, type UserRow } from './user.repository';

/** How many recovery codes an activation hands out. */
export const recoveryCodeCount = 10;

/** The user a 2-step call acts for: a signed-in caller or a sign-in challenge. */
interface Account {
  clientId: string;
  userId: string;
}

/** Recovery codes are compared without case, spaces or dashes, as people retype them. */
const normalizeRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

/** Ten characters of base32-like text as `XXXXX-XXXXX`: 50 bits, plenty for one use. */
function newRecoveryCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const chars = [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const invalidCode = () => badRequest(errorMessages.mfaCodeInvalid);

/**
 * 2-step verification (issue 14, Sign-in security): setting up a TOTP secret, turning it
 * on and off, the second sign-in step, the forced first activation, and the owner's switch.
 * 2-step belongs to the person: for a membership row of another client, the secret, codes
 * and lockout are the credential holder's, read outside the tenant, written inside its own.
 */
export class MfaService {
  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
    private readonly keys: MfaKeys,
    private readonly issuerName = 'Omni Inbox',
  ) {}

  /** Whether the caller has 2-step on and whether their client requires it. */
  async status(caller: AuthContext): Promise<MfaStatusResponse> {
    const client = await withTenant(this.db, caller.clientId, (tx) => findClient(tx, caller.clientId));
    const holder = await this.holderOf(caller);
    if (!client) throw unauthorized();
    return { enabled: holder.mfaEnabledAt !== null, clientRequiresMfa: client.requireMfa };
  }

  /** A new pending secret for the caller; any earlier pending one stops working. */
  async startActivation(account: Account): Promise<MfaSetupResponse> {
    const secret = generateTotpSecret();
    const holder = await this.holderOf(account);
    const email = await withTenant(this.db, holder.clientId, async (tx) => {
      const user = await findUser(tx, holder.clientId, holder.id);
      if (!user) throw unauthorized();
      if (user.mfaEnabledAt) throw badRequest(errorMessages.mfaAlreadyEnabled);
      await storePendingMfaSecret(tx, user.clientId, user.id, this.keys.seal(secret));
      return user.email;
    });
    const url = otpauthUrl({ issuer: this.issuerName, account: email, secret });
    return { secret, otpauthUrl: url, qrDataUrl: await QRCode.toDataURL(url, { margin: 1, width: 240 }) };
  }

  /** Turns 2-step on when the code matches the pending secret; answers the recovery codes once. */
  async activate(account: Account, code: string): Promise<MfaActivatedResponse> {
    const holder = await this.holderOf(account);
    return withTenant(this.db, holder.clientId, async (tx) => {
      const user = await findUser(tx, holder.clientId, holder.id);
      if (!user) throw unauthorized();
      if (user.mfaEnabledAt) throw badRequest(errorMessages.mfaAlreadyEnabled);
      const secret = user.mfaSecret ? this.keys.open(user.mfaSecret) : null;
      if (!secret || !verifyTotp(secret, code)) throw invalidCode();
      const recoveryCodes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
      await enableMfa(tx, user.clientId, user.id, recoveryCodes.map(hashRecoveryCode));
      return { recoveryCodes };
    });
  }

  /** Turns 2-step off with a valid code; refused while the client requires it. */
  async deactivate(caller: AuthContext, code: string): Promise<void> {
    const client = await withTenant(this.db, caller.clientId, (tx) => findClient(tx, caller.clientId));
    const holder = await this.holderOf(caller);
    if (!client) throw unauthorized();
    await withTenant(this.db, holder.clientId, async (tx) => {
      const user = await findUser(tx, holder.clientId, holder.id);
      if (!user) throw unauthorized();
      if (!user.mfaEnabledAt) throw badRequest(errorMessages.mfaNotEnabled);
      if (client.requireMfa) throw badRequest(errorMessages.mfaRequiredByClient);
      if (!(await this.codeMatches(tx, user, code))) throw invalidCode();
      await disableMfa(tx, user.clientId, user.id);
    });
  }

  /** The second sign-in step: a code (or a recovery code) for the challenge opens the session. */
  async verifySignIn(
    challengeToken: string | undefined,
    code: string,
    origin: RequestOrigin,
  ): Promise<LoginResponse> {
    const user = await this.challengedUser(challengeToken, 'mfa-verify');
    const holder = await this.holderOf({ clientId: user.clientId, userId: user.id });
    const accepted = await withTenant(this.db, holder.clientId, (tx) => this.codeMatches(tx, holder, code));
    if (!accepted) await this.failSignIn(user);
    return this.auth.completeSignIn(user, origin);
  }

  /** The forced flow's setup: a pending secret for the user named by the setup challenge. */
  async startForcedActivation(challengeToken: string | undefined): Promise<MfaSetupResponse> {
    const user = await this.challengedUser(challengeToken, 'mfa-setup');
    return this.startActivation({ clientId: user.clientId, userId: user.id });
  }

  /** The forced flow's end: the first code turns 2-step on and signs the user in. */
  async activateForced(
    challengeToken: string | undefined,
    code: string,
    origin: RequestOrigin,
  ): Promise<MfaForcedActivationResponse> {
    const user = await this.challengedUser(challengeToken, 'mfa-setup');
    let activated: MfaActivatedResponse;
    try {
      activated = await this.activate({ clientId: user.clientId, userId: user.id }, code);
    } catch (error) {
      if (error instanceof HttpError && error.message === errorMessages.mfaCodeInvalid)
        await this.failSignIn(user);
      throw error;
    }
    const session = await this.auth.completeSignIn(user, origin);
    return { ...session, recoveryCodes: activated.recoveryCodes };
  }

  /** The owner's switch: every user of the client must use 2-step verification. */
  async setPolicy(caller: AuthContext, required: boolean): Promise<{ required: boolean }> {
    if (!mayChangeMfaPolicy(caller)) throw forbidden();
    await withTenant(this.db, caller.clientId, (tx) => setClientRequiresMfa(tx, caller.clientId, required));
    return { required };
  }

  /**
   * The user a sign-in challenge names, still able to sign in: a locked account answers
   * 429 here too, so codes cannot be guessed past the lock.
   */
  private async challengedUser(token: string | undefined, purpose: MfaChallengePurpose): Promise<UserRow> {
    const challenge = await this.keys.verifyChallenge(token, purpose);
    if (!challenge) throw unauthorized(errorMessages.sessionExpired);
    const user = await withTenant(this.db, challenge.clientId, (tx) =>
      findUser(tx, challenge.clientId, challenge.userId),
    );
    if (!user || user.status !== 'ACTIVE' || user.deletedAt) throw unauthorized(errorMessages.sessionExpired);
    const holder = await findCredentialHolder(this.db, user);
    if (!holder) throw unauthorized(errorMessages.sessionExpired);
    if (isSignInLocked(holder)) throw new HttpError(429, errorMessages.tooManyRequests);
    if (purpose === 'mfa-verify' && !holder.mfaEnabledAt) throw unauthorized(errorMessages.sessionExpired);
    return user;
  }

  /** The person's credential holder (the row itself unless it is a membership row). */
  private async holderOf(account: Account): Promise<UserRow> {
    const row = await withTenant(this.db, account.clientId, (tx) =>
      findUser(tx, account.clientId, account.userId),
    );
    const holder = row && (await findCredentialHolder(this.db, row));
    if (!holder) throw unauthorized();
    return holder;
  }

  /** A wrong sign-in code counts toward the person's lock like a wrong password. */
  private async failSignIn(user: UserRow): Promise<never> {
    const holder = (await findCredentialHolder(this.db, user)) ?? user;
    await withTenant(this.db, holder.clientId, (tx) => recordSignInFailure(tx, holder.clientId, holder.id));
    throw invalidCode();
  }

  /** Six digits check the app's code; anything else is tried as an unused recovery code. */
  private async codeMatches(
    tx: Parameters<typeof useRecoveryCode>[0],
    user: UserRow,
    code: string,
  ): Promise<boolean> {
    if (/^\d{6}$/.test(code)) {
      const secret = user.mfaSecret ? this.keys.open(user.mfaSecret) : null;
      const step = secret === null ? null : matchTotpStep(secret, code);
      return step !== null && claimTotpStep(tx, user.clientId, user.id, step);
    }
    return useRecoveryCode(tx, user.clientId, user.id, hashRecoveryCode(code));
  }
}
