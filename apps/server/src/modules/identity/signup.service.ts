import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  bitString,
  type DevMailboxResponse,
  errorMessages,
  freeTrialDays,
  type LoginResponse,
  signupLimits as limits,
  type SignupCodeResponse,
  type SignupVerifyBody,
  type SignupVerifyResponse,
  signupAccountBody,
  type signupCompleteBody,
  signupErrorMessages,
} from '@app/contracts';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client';
import { appendEvent } from '../../platform/events/outbox';
import { badRequest } from '../../platform/http/http-errors';
import { mailQueuedTopic } from '../../platform/mail/mail-service';
import type { AuthService, RequestOrigin } from './auth.service';
import { hashPassword } from './password-hasher';
import { sha256, tooManyRequests } from './reset-codes';
import {
  countSignupCodesSince,
  findSignupRequest,
  insertClientlessMail,
  insertSignupClient,
  insertSignupOwner,
  insertSignupRequest,
  listClientlessMail,
  markSignupCompleted,
  markSignupVerified,
  recordSignupWrongAttempt,
  retireSignupRequest,
  type SignupRequestRow,
  slugsLike,
  wabaPhoneTaken,
} from './signup.repository';
import { findUserForSignIn } from './user.repository';

/** The outbox needs a client id; mail of no client is announced under the nil id, to no room. */
const noClientId = '00000000-0000-0000-0000-000000000000';
/** A free trial opens every feature, like the demo: feature-access bits and advanced search (29). */
const newClientPermissionIndex = bitString([0, 1, 2, 9, 10, 14, 15, 16, 29]);
const newClientFeatures = ['INBOX', 'BROADCAST', 'TEMPLATE', 'CONTACT', 'PRODUCT'];

const emailTaken = () => badRequest(signupErrorMessages.emailTaken);
const wabaTaken = () => badRequest(signupErrorMessages.wabaPhoneTaken);
const timedOut = () => badRequest(signupErrorMessages.sessionTimedOut);

/** A store name as a URL-safe slug; a name of no Latin letters or digits becomes `toko`. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'toko';
}

/** The unique-index violation behind a database error, if it is one. */
function violatedConstraint(error: unknown): string | undefined {
  for (
    let current = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
    current;
  ) {
    if (current.code === '23505') return current.constraint ?? '';
    current = current.cause as typeof current;
  }
  return undefined;
}

/**
 * Sign-up (commerce §5, issue 14): the account step e-mails a 6-digit code, the right code
 * earns a continue token, and the last call creates the client and its owner in one
 * transaction and signs the owner in. Codes follow forgot password's rules (hashed with the
 * server key, one use, five tries, ten minutes); every request row is one code sent, so
 * the hourly quota per e-mail counts rows.
 */
export class SignupService {
  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
    private readonly secret: string,
  ) {}

  /** The account step: checks the e-mail and phone are free, stores the request, mails the code. */
  async account(input: unknown, ip: string | null): Promise<SignupCodeResponse> {
    const parsed = signupAccountBody.safeParse(input);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? errorMessages.generic);
    const body = parsed.data;
    await this.assertEmailFree(body.email);
    if (await wabaPhoneTaken(this.db, body.phone)) throw wabaTaken();
    const passwordHash = await hashPassword(body.password);
    const account = {
      email: body.email,
      phone: body.phone,
      name: body.name,
      passwordHash,
      referralCode: body.referralCode ?? null,
      ip,
    };
    return this.db.transaction(async (tx) => this.issue(tx, account));
  }

  /** A new code for the same account; the countdown and the hourly quota still hold. */
  async resend(signupId: string, ip: string | null): Promise<SignupCodeResponse> {
    const earlier = await findSignupRequest(this.db, signupId);
    if (!earlier || earlier.verifiedAt || earlier.completedAt) throw timedOut();
    if (earlier.createdAt.getTime() > Date.now() - limits.resendSeconds * 1000) throw tooManyRequests();
    return this.db.transaction(async (tx) => {
      if (!(await retireSignupRequest(tx, earlier.id))) throw timedOut();
      const { email, phone, name, passwordHash, referralCode } = earlier;
      return this.issue(tx, { email, phone, name, passwordHash, referralCode, ip });
    });
  }

  /** Checks the code; a right one becomes the continue token, a wrong one counts towards the lock. */
  async verify(body: SignupVerifyBody): Promise<SignupVerifyResponse> {
    const request = await findSignupRequest(this.db, body.signupId);
    if (!request || request.verifiedAt || request.completedAt || request.expiresAt <= new Date())
      throw badRequest(errorMessages.otpExpired);
    if (request.attempts >= limits.maxAttempts) throw tooManyRequests();
    if (!this.matches(request, body.code)) {
      await recordSignupWrongAttempt(this.db, request.id);
      throw badRequest(errorMessages.otpIncorrect);
    }
    const continueToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + limits.continueTokenTtlSeconds * 1000);
    if (!(await markSignupVerified(this.db, request.id, sha256(continueToken), expiresAt)))
      throw badRequest(errorMessages.otpExpired);
    return { continueToken, expiresInSeconds: limits.continueTokenTtlSeconds };
  }

  /**
   * The last step: client, owner and inbox settings are written with the request's
   * completion in one transaction, so a second call, or an e-mail or number taken
   * meanwhile, leaves nothing behind. The owner is then signed in like any sign-in.
   */
  async complete(body: z.output<typeof signupCompleteBody>, origin: RequestOrigin): Promise<LoginResponse> {
    const request = await findSignupRequest(this.db, body.signupId);
    if (!request?.verifiedAt || !request.continueTokenHash || request.completedAt) throw timedOut();
    if (
      request.expiresAt <= new Date() ||
      !this.sameHash(request.continueTokenHash, sha256(body.continueToken))
    )
      throw timedOut();
    await this.assertEmailFree(request.email);
    const wabaPhone = body.waba?.phone ?? null;
    if (wabaPhone && (await wabaPhoneTaken(this.db, wabaPhone))) throw wabaTaken();
    const now = Date.now();
    // Until billing exists nothing can be paid, so every package starts as a 30-day trial of
    // it; the package chosen is kept for when payment comes.
    let owner: Awaited<ReturnType<typeof insertSignupOwner>>;
    try {
      owner = await this.db.transaction(async (tx) => {
        if (!(await markSignupCompleted(tx, request.id))) throw timedOut();
        const client = await insertSignupClient(tx, {
          slug: await this.freeSlug(tx, slugOf(body.store.name)),
          name: body.store.name,
          permissionIndex: newClientPermissionIndex,
          features: newClientFeatures,
          businessFields: body.store.businessFields,
          businessType: body.store.businessType,
          businessMode: body.store.businessMode,
          wabaPhone,
          subscriptionPackage: body.subscription.package,
          trialEndsAt: new Date(now + freeTrialDays * 86_400_000),
          referralCode: request.referralCode,
        });
        // The credential holder; consent stays unagreed, so the first sign-in asks for it.
        return insertSignupOwner(tx, {
          clientId: client.id,
          email: request.email,
          name: request.name,
          role: 'OWN',
          phone: request.phone,
          passwordHash: request.passwordHash,
        });
      });
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (constraint?.startsWith('users_')) throw emailTaken();
      if (constraint === 'clients_waba_phone_unique') throw wabaTaken();
      throw error;
    }
    return this.auth.completeSignIn(owner, origin);
  }

  /** Mail of no client, newest first: the development mailbox where sign-up codes can be read. */
  async devMailbox(recipient: string | undefined): Promise<DevMailboxResponse> {
    const rows = await listClientlessMail(this.db, recipient, 20);
    return {
      content: rows.map((row) => ({
        id: row.id,
        recipient: row.recipient,
        subject: row.subject,
        text: row.text,
        status: row.status,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }

  private async assertEmailFree(email: string): Promise<void> {
    const holder = await findUserForSignIn(this.db, email);
    if (holder && holder.deletedAt === null) throw emailTaken();
  }

  /** Writes one request row (one code) and queues its e-mail, in the caller's transaction. */
  private async issue(
    tx: Executor,
    account: Pick<SignupRequestRow, 'email' | 'phone' | 'name' | 'passwordHash' | 'referralCode' | 'ip'>,
  ): Promise<SignupCodeResponse> {
    const now = Date.now();
    const sentLastHour = await countSignupCodesSince(tx, account.email, new Date(now - 3_600_000));
    if (sentLastHour >= limits.maxCodesPerHour) throw tooManyRequests();
    const code = randomInt(0, 10 ** limits.codeLength)
      .toString()
      .padStart(limits.codeLength, '0');
    const id = crypto.randomUUID();
    await insertSignupRequest(tx, {
      id,
      ...account,
      codeHash: this.codeHash(id, code),
      expiresAt: new Date(now + limits.codeTtlSeconds * 1000),
    });
    const mail = await insertClientlessMail(tx, {
      recipient: account.email,
      ...codeMail(account.name, code),
    });
    await appendEvent(tx, {
      clientId: noClientId,
      topic: mailQueuedTopic,
      rooms: [],
      payload: { mailId: mail.id },
    });
    return { signupId: id, resendInSeconds: limits.resendSeconds, expiresInSeconds: limits.codeTtlSeconds };
  }

  /** Its own purpose and the request id in the key, so no reset code or other request's code fits. */
  private codeHash(signupId: string, code: string): string {
    return createHmac('sha256', this.secret).update(`signup:${signupId}:${code}`).digest('hex');
  }

  private matches(request: SignupRequestRow, candidate: string): boolean {
    return this.sameHash(request.codeHash, this.codeHash(request.id, candidate.trim()));
  }

  private sameHash(storedHex: string, candidateHex: string): boolean {
    const stored = Buffer.from(storedHex, 'hex');
    const candidate = Buffer.from(candidateHex, 'hex');
    return stored.length === candidate.length && timingSafeEqual(stored, candidate);
  }

  /** The base slug, or the first free `base-N` after it. */
  private async freeSlug(tx: Executor, base: string): Promise<string> {
    const taken = new Set(await slugsLike(tx, base));
    if (!taken.has(base)) return base;
    let suffix = 2;
    while (taken.has(`${base}-${suffix}`)) suffix += 1;
    return `${base}-${suffix}`;
  }
}

/** The code's message, Indonesian first then English (the person's language is not known yet). */
function codeMail(name: string, code: string): { subject: string; text: string } {
  const minutes = limits.codeTtlSeconds / 60;
  return {
    subject: `Kode pendaftaran / Sign-up code: ${code}`,
    text: [
      `Halo ${name},`,
      '',
      `Kode untuk menyelesaikan pendaftaran Anda: ${code}`,
      `Kode berlaku ${minutes} menit dan hanya dapat digunakan sekali. Abaikan email ini jika Anda tidak mendaftar.`,
      '',
      `Hello ${name},`,
      '',
      `Your sign-up code: ${code}`,
      `The code is valid for ${minutes} minutes and can be used once. Ignore this e-mail if you did not sign up.`,
    ].join('\n'),
  };
}
