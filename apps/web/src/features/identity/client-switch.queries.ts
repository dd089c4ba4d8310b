import { clientMembershipListResponse, type SignInResponse, signInResponse } from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResult, api, dataOrThrow } from '../../shared/api-client';

export const clientListQueryKey = ['identity', 'clients'] as const;

/** The clients the signed-in person can enter (issue 14, multi-client), for the selection dialog. */
export function clientListQueryOptions() {
  return queryOptions({
    queryKey: clientListQueryKey,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/identity/users/clients', { schema: clientMembershipListResponse })),
    staleTime: 30_000,
  });
}

/** Asks for a session in another client; the server ends the current one when it answers tokens. */
export function switchClient(clientId: string): Promise<ApiResult<SignInResponse>> {
  return api.post('/api/identity/users/switch-client', { clientId }, { schema: signInResponse });
}

/** Remembers the session the dialog was last offered in (cleared with the rest on sign-out). */
const offeredSessionKey = 'omni.clientSwitch.offeredSession';

/**
 * The selection dialog is offered once per sign-in: a reload, or the session a switch
 * opened, keeps its session id and is not asked again.
 */
export const clientSwitchOffer = {
  isDue: (sessionId: string) => localStorage.getItem(offeredSessionKey) !== sessionId,
  markOffered: (sessionId: string) => localStorage.setItem(offeredSessionKey, sessionId),
};
