import {
  auditLogEntry,
  type PageVisitBody,
  type PostAuditLogBody,
  pageVisitResponse,
  trackerConfigResponse,
} from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, dataOrThrow } from '../../shared/api-client';
import { clientLogPath } from '../../shared/request-timing';

/**
 * Whether tracking is on for the signed-in client; keyed by client so a client switch
 * asks again. It changes only with the server's configuration, so it is read once.
 */
export function trackerConfigQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: ['tracking', 'config', clientId] as const,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/commerce/tracker/config', { schema: trackerConfigResponse })),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Posts one page visit (core-inbox §7 Commerce: tracker/page-visitation). */
export function postPageVisit(body: PageVisitBody) {
  return api.post('/api/commerce/tracker/page-visitation', body, { schema: pageVisitResponse });
}

/** The client log post (core-inbox §7 POST logs), the audit module's endpoint. */
export function postClientLog(body: PostAuditLogBody) {
  return api.post(clientLogPath, body, { schema: auditLogEntry });
}
