import {
  loginResponse,
  type SignupAccountBody,
  type SignupCompleteBody,
  type SignupVerifyBody,
  signupCodeResponse,
  signupVerifyResponse,
} from '@app/contracts';
import { api } from '../../shared/api-client';
import { startSession } from '../../shared/session';

/** Step "Akun": stores the account and mails the 6-digit code; answers the resend countdown. */
export function submitSignupAccount(body: SignupAccountBody) {
  return api.post('/api/identity/signup/account', body, { auth: false, schema: signupCodeResponse });
}

/** A new code for the same account once the countdown ran out; the answer's signupId replaces the old one. */
export function resendSignupCode(signupId: string) {
  return api.post('/api/identity/signup/resend', { signupId }, { auth: false, schema: signupCodeResponse });
}

/** Step "Kode OTP": the code for the token that lets the last steps finish. */
export function verifySignupCode(body: SignupVerifyBody) {
  return api.post('/api/identity/signup/verify', body, { auth: false, schema: signupVerifyResponse });
}

/** The last call: creates the client and its owner; on success the owner's session starts here. */
export async function completeSignup(body: SignupCompleteBody) {
  const result = await api.post('/api/identity/signup/complete', body, {
    auth: false,
    schema: loginResponse,
  });
  if (result.ok)
    startSession({ accessToken: result.data.accessToken, refreshToken: result.data.refreshToken });
  return result;
}
