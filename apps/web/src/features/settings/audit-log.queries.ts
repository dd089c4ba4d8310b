import { auditErrorMessages, auditLogPage, auditTypeListResponse, type ErrorObject } from '@app/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { api, dataOrThrow, toErrorObject } from '../../shared/api-client';
import { errorText } from '../../shared/i18n';
import { getSession } from '../../shared/session';

/** The filters of the audit-log screen, as the API takes them. */
export interface AuditLogFilters {
  from: string;
  to: string;
  type?: string;
  userId?: string;
}

export const auditLogKey = ['audit-log'] as const;

/** The log page by page, newest first; each page carries the cursor of the next. */
export function auditLogQueryOptions(filters: AuditLogFilters) {
  return infiniteQueryOptions({
    queryKey: [...auditLogKey, 'rows', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      dataOrThrow(
        await api.get('/api/log/logs/byclient', {
          query: { ...filters, cursor: pageParam },
          schema: auditLogPage,
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** The kinds of rows the client's log holds, for the type filter. */
export function auditTypesQueryOptions() {
  return queryOptions({
    queryKey: [...auditLogKey, 'types'],
    queryFn: async () =>
      dataOrThrow(await api.get('/api/log/logs/types', { schema: auditTypeListResponse })).content,
  });
}

/** The locale's text for a failed audit-log call: this screen's catalogue first. */
export function auditErrorText(t: TFunction, error: ErrorObject): string {
  const key = (Object.keys(auditErrorMessages) as Array<keyof typeof auditErrorMessages>).find(
    (candidate) => auditErrorMessages[candidate] === error.message,
  );
  return key ? t(`auditLog.errors.${key}`) : errorText(t, error);
}

/** Fetches the range as a CSV file (a plain link cannot carry the bearer token). */
export async function downloadAuditLog(
  filters: AuditLogFilters,
): Promise<{ ok: true; blob: Blob } | { ok: false; error: ErrorObject }> {
  const search = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  const send = (token: string | undefined) =>
    fetch(`/api/log/logs/download?${search}`, {
      headers: { accept: 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  try {
    const token = getSession()?.accessToken;
    let response = await send(token);
    if (response.status === 401 && token && (await api.refreshAfter(token))) {
      response = await send(getSession()?.accessToken);
    }
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      return { ok: false, error: toErrorObject(response.status, body) };
    }
    return { ok: true, blob: await response.blob() };
  } catch {
    return { ok: false, error: toErrorObject(0, null) };
  }
}
