import {
  agentGroupListResponse,
  type agentGroupView,
  assignableAgentListResponse,
  type assignableAgentView,
  columnSetBody,
  type ErrorObject,
  searchResponse,
  type TicketColumn,
  tagListResponse,
  ticketListResponse,
  unreadCountResponse,
} from '@app/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, dataOrThrow, toErrorObject } from '../../shared/api-client';
import { getSession } from '../../shared/session';
import type { TicketListParams } from './ticket-list/ticket-filters';

/** Every cache key of the inbox screens starts here, so a resync can refetch them together. */
export const inboxKeys = {
  all: ['inbox'] as const,
  lists: () => [...inboxKeys.all, 'list'] as const,
  list: (source: TicketListSource, params: TicketListParams) =>
    [...inboxKeys.lists(), source, params] as const,
  counts: () => [...inboxKeys.all, 'counts'] as const,
  columns: () => [...inboxKeys.all, 'columns'] as const,
  agents: () => [...inboxKeys.all, 'agents'] as const,
  groups: () => [...inboxKeys.all, 'groups'] as const,
  tags: () => [...inboxKeys.all, 'tags'] as const,
  searches: () => [...inboxKeys.all, 'search'] as const,
  search: (source: SearchSource, params: Record<string, string | undefined>) =>
    [...inboxKeys.searches(), source, params] as const,
  unread: () => [...inboxKeys.all, 'unread'] as const,
};

/**
 * Where a ticket list comes from: the agent's conversation list (open chats, latest
 * activity first) or the ticket table (every state, the filters' choice).
 */
export type TicketListSource = 'chatRoom' | 'ticketList';

const listPaths: Record<TicketListSource, string> = {
  chatRoom: '/api/csp/chatRoom',
  ticketList: '/api/ticket/ticket/list',
};

/** One list, loaded page by page with the server's keyset cursor. */
export function ticketListQueryOptions(source: TicketListSource, params: TicketListParams) {
  return infiniteQueryOptions({
    queryKey: inboxKeys.list(source, params),
    queryFn: async ({ pageParam, signal }) =>
      dataOrThrow(
        await api.get(listPaths[source], {
          query: { ...params, cursor: pageParam ?? undefined },
          schema: ticketListResponse,
          signal,
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    // Realtime events keep a loaded list current; refetching would only lose the scroll.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type AgentOption = z.infer<typeof assignableAgentView>;
export type GroupOption = z.infer<typeof agentGroupView>;

/** Users a chat can be assigned to, for names in the table and the agent filters. */
export function agentsQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.agents(),
    queryFn: async (): Promise<AgentOption[]> =>
      dataOrThrow(await api.get('/api/csp/agents', { schema: assignableAgentListResponse })).content,
    staleTime: 5 * 60_000,
  });
}

/** Agent groups, for names in the table and the group filter. */
export function groupsQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.groups(),
    queryFn: async (): Promise<GroupOption[]> =>
      dataOrThrow(await api.get('/api/csp/groups', { schema: agentGroupListResponse })).content,
    staleTime: 5 * 60_000,
  });
}

/** The client's ticket tags, most used first, for the tag filter's suggestions. */
export function tagsQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.tags(),
    queryFn: async (): Promise<string[]> =>
      dataOrThrow(await api.get('/api/csp/tags', { schema: tagListResponse })).content.map((tag) => tag.name),
    staleTime: 5 * 60_000,
  });
}

/** The user's saved column set of the ticket table. */
export function columnsQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.columns(),
    queryFn: async () =>
      dataOrThrow(await api.get('/api/ticket/views/columns', { schema: columnSetBody })).columns,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function saveColumns(columns: TicketColumn[]) {
  return api.put('/api/ticket/views/columns', { columns }, { schema: columnSetBody });
}

/** Unread messages across the user's chats (core-inbox §7). */
export function unreadCountQueryOptions() {
  return queryOptions({
    queryKey: inboxKeys.unread(),
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/chatRoom/unread/count', { schema: unreadCountResponse })),
    staleTime: 30_000,
  });
}

/**
 * The two search screens: the plain chat history (the customer-service platform's
 * `chatRoom/history`) and the advanced ticket search of the ticket service.
 */
export type SearchSource = 'history' | 'advanced';

export function searchQueryOptions(source: SearchSource, params: Record<string, string | undefined>) {
  return infiniteQueryOptions({
    queryKey: inboxKeys.search(source, params),
    queryFn: async ({ pageParam, signal }) => {
      const cursor = pageParam ?? undefined;
      const result =
        source === 'history'
          ? await api.post(
              '/api/csp/chatRoom/history',
              { ...withoutEmpty(params), cursor },
              { schema: searchResponse, signal },
            )
          : await api.get('/api/ticket/search', {
              query: { ...params, cursor },
              schema: searchResponse,
              signal,
            });
      return dataOrThrow(result);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 30_000,
  });
}

function withoutEmpty(params: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export type DownloadResult = { ok: true; blob: Blob; filename: string } | { ok: false; error: ErrorObject };

function filenameOf(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]) : fallback;
}

/**
 * Fetches the chat-history CSV (at most 31 days). A file is no JSON, so this goes around
 * the api client's body parsing but keeps its rules: the bearer token, and one refresh
 * when the token was refused.
 */
export async function downloadHistory(
  params: Record<string, string | undefined>,
  fallbackName: string,
): Promise<DownloadResult> {
  const search = new URLSearchParams(withoutEmpty(params)).toString();
  const send = (token: string | undefined) =>
    fetch(`/api/ticket/search/download?${search}`, {
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
    const filename = filenameOf(response.headers.get('content-disposition'), fallbackName);
    return { ok: true, blob: await response.blob(), filename };
  } catch {
    return { ok: false, error: toErrorObject(0, null) };
  }
}

/** Hands a file to the browser as a download, without opening it. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
