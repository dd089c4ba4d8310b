import type { AuthContext } from '../../platform/http/authentication';

/**
 * Only the owner may require 2-step verification for everyone: the switch can lock out
 * every user without an authenticator app, so it belongs to whoever answers for the client.
 */
export function mayChangeMfaPolicy(caller: Pick<AuthContext, 'role'>): boolean {
  return caller.role === 'OWN';
}
