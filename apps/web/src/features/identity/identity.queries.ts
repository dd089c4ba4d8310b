import { agentStatusResponse, type ChangePasswordBody, meResponse, messageResponse } from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';
import { browserTokenStore, endSession } from '../../shared/session';

export type AgentStatus = 'ONLINE' | 'OFFLINE';

export const meQueryKey = ['identity', 'me'] as const;

/** The signed-in user with their client; shared by the header and the account page. */
export function meQueryOptions() {
  return queryOptions({
    queryKey: meQueryKey,
    queryFn: async () => dataOrThrow(await api.get('/api/identity/users/me', { schema: meResponse })),
    staleTime: 60_000,
  });
}

/**
 * Signs out: the server revokes the refresh token (and the agent's push status), then
 * the session's storage is cleared. A failed call still signs out locally: the user
 * asked to leave, and the access token expires on its own.
 */
export async function signOut(): Promise<void> {
  const refreshToken = browserTokenStore.read()?.refreshToken;
  if (refreshToken)
    await api.post('/api/identity/auth/logout', { refreshToken }, { schema: messageResponse });
  endSession('signed-out');
}

/** Changes the password; on success every session of the user is revoked by the server. */
export function changePassword(body: ChangePasswordBody) {
  return api.put('/api/identity/users/changePassword', body, { schema: messageResponse });
}

/** Posts the agent's availability to the push service (core-inbox §4). */
export function setAgentStatus(status: AgentStatus) {
  return api.post('/api/identity/pushnotif/status', { status }, { schema: agentStatusResponse });
}
