import type { AuthContext } from '../../platform/http/authentication';

/**
 * Who may upload files: inbox users for attachments, and whoever creates or edits a
 * live-chat widget for its logo (a widget admin need not work in the inbox).
 */
export function mayUploadMedia(auth: AuthContext): boolean {
  return (
    auth.ability.can('READ', 'CUSTOMER_SERVICE_INBOX') ||
    auth.ability.can('READ', 'CREATE_LIVE_CHAT') ||
    auth.ability.can('READ', 'EDIT_LIVE_CHAT')
  );
}

/** The owner reference of files a signed-in user uploads. */
export const userOwnerRef = (auth: AuthContext) => `user:${auth.userId}`;
