import { z } from 'zod';
import { loginResponse, tokenPair, userSummary } from './identity';

/** 2-step verification: six digits from the authenticator app (core-inbox §5). */
export const mfaCodeLength = 6;

/**
 * What the user types at a 2-step prompt: the app's six digits or one of their
 * recovery codes (letters, digits and a dash), so the schema takes both.
 */
export const mfaCodeBody = z.object({ token: z.string().trim().min(1).max(32) });
export type MfaCodeBody = z.infer<typeof mfaCodeBody>;

/** The actions of POST /api/identity/users/mfa/{action}. */
export const mfaActions = ['activate', 'verify', 'deactivate'] as const;
export type MfaAction = (typeof mfaActions)[number];

/** A pending secret to scan: the base32 secret, its otpauth URL and a QR as a data URL. */
export const mfaSetupResponse = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrDataUrl: z.string(),
});
export type MfaSetupResponse = z.infer<typeof mfaSetupResponse>;

/** Answer of a successful activation: the recovery codes, shown this once only. */
export const mfaActivatedResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type MfaActivatedResponse = z.infer<typeof mfaActivatedResponse>;

/** Answer of the forced activation: the recovery codes plus the session it opens. */
export const mfaForcedActivationResponse = tokenPair.extend({
  user: userSummary,
  recoveryCodes: z.array(z.string()),
});
export type MfaForcedActivationResponse = z.infer<typeof mfaForcedActivationResponse>;

/** Sign-in's first step is done; the code (verify) or a first activation (setup) must follow. */
export const mfaChallengeResponse = z.union([
  z.object({ mfaRequired: z.literal(true), mfaToken: z.string() }),
  z.object({ mfaSetupRequired: z.literal(true), mfaToken: z.string() }),
]);
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponse>;

/** What POST /api/identity/auth/login answers: a session, or a 2-step challenge. */
export const signInResponse = z.union([loginResponse, mfaChallengeResponse]);
export type SignInResponse = z.infer<typeof signInResponse>;

/** The caller's 2-step state and the client's policy, for the setup page. */
export const mfaStatusResponse = z.object({ enabled: z.boolean(), clientRequiresMfa: z.boolean() });
export type MfaStatusResponse = z.infer<typeof mfaStatusResponse>;

/** The owner's switch: every user of the client must use 2-step verification. */
export const mfaPolicyBody = z.object({ required: z.boolean() });
export type MfaPolicyBody = z.infer<typeof mfaPolicyBody>;
export const mfaPolicyResponse = z.object({ required: z.boolean() });
