import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../shared/api-client';

/** Retries only what may pass on a second try: network and server failures, not 4xx answers. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          !(error instanceof ApiRequestError && error.detail.statusCode < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
