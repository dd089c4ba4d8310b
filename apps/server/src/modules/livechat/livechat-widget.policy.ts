import type { AuthContext } from '../../platform/http/authentication';

/**
 * Who sees the live-chat widgets: whoever may create one or edit one (commerce routes
 * /livechat/create and /livechat/edit), since both screens list the client's widgets.
 */
export function mayReadWidgets(auth: AuthContext): boolean {
  return auth.ability.can('READ', 'CREATE_LIVE_CHAT') || auth.ability.can('READ', 'EDIT_LIVE_CHAT');
}
