import {
  messageResponse,
  type PhoneResetConfirmBody,
  type PhoneResetValidateBody,
  phoneResetRequestResponse,
  phoneResetValidateResponse,
} from '@app/contracts';
import { api } from '../../shared/api-client';

/** Step phone: texts a 5-digit code; answers the resend countdown. */
export function requestPhoneReset(phone: string) {
  return api.post(
    '/api/identity/users/resetPassword/phone/request',
    { phone },
    { auth: false, schema: phoneResetRequestResponse },
  );
}

/** Step otp-verification: the code for a short-lived reset token. */
export function validatePhoneReset(body: PhoneResetValidateBody) {
  return api.post('/api/identity/users/resetPassword/phone/validate', body, {
    auth: false,
    schema: phoneResetValidateResponse,
  });
}

/** Step change-password: the new password; every session of the user ends. */
export function confirmPhoneReset(body: PhoneResetConfirmBody) {
  return api.post('/api/identity/users/resetPassword/phone/confirm', body, {
    auth: false,
    schema: messageResponse,
  });
}

/**
 * What the steps hand each other. Kept in sessionStorage so a reload keeps the step,
 * and so a later step opened without it can send the user back to the start.
 */
export interface PhoneResetState {
  phone?: string;
  /** Epoch milliseconds when another code may be sent. */
  resendAt?: number;
  resetToken?: string;
  done?: boolean;
}

const stateKey = 'omni.phoneReset';

export const phoneResetState = {
  read(): PhoneResetState {
    try {
      return JSON.parse(sessionStorage.getItem(stateKey) ?? '{}') as PhoneResetState;
    } catch {
      return {};
    }
  },
  write(state: PhoneResetState): void {
    sessionStorage.setItem(stateKey, JSON.stringify(state));
  },
  clear(): void {
    sessionStorage.removeItem(stateKey);
  },
};
