import {
  mailboxListResponse,
  messageResponse,
  type PasswordResetConfirmBody,
  type PasswordResetValidateBody,
  passwordResetRequestResponse,
  passwordResetValidateResponse,
} from '@app/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';

/** Step 1 of forgot password: mails a code; answers the resend countdown. */
export function requestPasswordReset(email: string) {
  return api.post(
    '/api/identity/users/resetPassword/request',
    { email },
    { auth: false, schema: passwordResetRequestResponse },
  );
}

/** Step 2: the code for a short-lived reset token. */
export function validatePasswordReset(body: PasswordResetValidateBody) {
  return api.post('/api/identity/users/resetPassword/validate', body, {
    auth: false,
    schema: passwordResetValidateResponse,
  });
}

/** Step 3: the new password; every session of the user ends. */
export function confirmPasswordReset(body: PasswordResetConfirmBody) {
  return api.post('/api/identity/users/resetPassword/confirm', body, {
    auth: false,
    schema: messageResponse,
  });
}

/** The client's local mailbox, newest first; refreshed often so new codes show up by themselves. */
export function mailboxQueryOptions(pageNumber: number, pageSize: number) {
  return queryOptions({
    queryKey: ['identity', 'mailbox', pageNumber, pageSize] as const,
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/identity/mailbox', {
          query: { pageNumber, pageSize },
          schema: mailboxListResponse,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}
