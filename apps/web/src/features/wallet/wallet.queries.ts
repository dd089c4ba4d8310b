import { walletResponse } from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';

/**
 * The client's chat-credit balance and bonus. Fetched again by the navigation guard on
 * every navigation (core-inbox §2), so the query itself never goes stale on its own.
 */
export function walletQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: ['wallet', clientId] as const,
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/plus/wallet/byClientId', { query: { clientId }, schema: walletResponse }),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
