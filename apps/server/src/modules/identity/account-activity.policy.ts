import type { AuthContext } from '../../platform/http/authentication';

/** Admins (who may manage the client's users) see and clear everyone's account activity. */
export const mayManageClientActivity = (caller: AuthContext): boolean =>
  caller.ability.can('READ', 'SETTING_ADMIN');

/** Anyone may clear their own record; only an admin another user's (core-inbox §7 Plus). */
export const mayDeleteActivityOf = (caller: AuthContext, email: string): boolean =>
  email.trim().toLowerCase() === caller.email.trim().toLowerCase() || mayManageClientActivity(caller);
