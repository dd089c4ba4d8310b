import {
  agentGroupListResponse,
  type agentGroupView,
  assignableAgentListResponse,
  type assignableAgentView,
  type ChatPageResponse,
  categoryListResponse,
  changeStatusResponse,
  chatPageResponse,
  inboxConfiguration,
  mediaImageResponse,
  messageView,
  type SendMessageBody,
  type TicketDetailResponse,
  type TicketPriority,
  type TicketSummary,
  tagListResponse,
  ticketDetailResponse,
  ticketSummary,
  uploadLinkResponse,
} from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, dataOrThrow, errorObjectOf } from '../../../shared/api-client';
import { getSession } from '../../../shared/session';

export type AgentOption = z.infer<typeof assignableAgentView>;
export type GroupOption = z.infer<typeof agentGroupView>;

/** The chat-service configuration switches (core-inbox §3) as booleans: the API sends 0 or 1. */
export interface ChatConfiguration {
  isDisplayChatroomEmoji: boolean;
  isDisplayChatroomAttachment: boolean;
  isDisplayChatroomCSName: boolean;
}

export const chatRoomKeys = {
  detail: (ticketId: number) => ['chatRoom', 'detail', ticketId] as const,
  configuration: ['chatRoom', 'configuration'] as const,
  agents: ['chatRoom', 'agents'] as const,
  groups: ['chatRoom', 'groups'] as const,
  categories: ['chatRoom', 'categories'] as const,
  tags: ['chatRoom', 'tags'] as const,
};

/** The ticket with its contact, earlier tickets and channel account. */
export function ticketDetailQueryOptions(ticketId: number) {
  return queryOptions({
    queryKey: chatRoomKeys.detail(ticketId),
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/csp/chatRoom/detail', { query: { ticketId }, schema: ticketDetailResponse }),
      ),
    // A refusal (404 for another client's ticket, 403) will not change on a retry.
    retry: (count, error) => count < 2 && errorObjectOf(error).statusCode >= 500,
  });
}

export function configurationQueryOptions() {
  return queryOptions({
    queryKey: chatRoomKeys.configuration,
    queryFn: async () => dataOrThrow(await api.get('/api/csp/configuration', { schema: inboxConfiguration })),
    select: (data): ChatConfiguration => ({
      isDisplayChatroomEmoji: data.isDisplayChatroomEmoji === 1,
      isDisplayChatroomAttachment: data.isDisplayChatroomAttachment === 1,
      isDisplayChatroomCSName: data.isDisplayChatroomCSName === 1,
    }),
    staleTime: 5 * 60_000,
  });
}

export function agentsQueryOptions() {
  return queryOptions({
    queryKey: chatRoomKeys.agents,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/agents', { schema: assignableAgentListResponse })).content,
    staleTime: 30_000,
  });
}

export function groupsQueryOptions() {
  return queryOptions({
    queryKey: chatRoomKeys.groups,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/groups', { schema: agentGroupListResponse })).content,
    staleTime: 5 * 60_000,
  });
}

export function categoriesQueryOptions() {
  return queryOptions({
    queryKey: chatRoomKeys.categories,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/categories', { schema: categoryListResponse })).content,
    staleTime: 5 * 60_000,
  });
}

export function tagsQueryOptions() {
  return queryOptions({
    queryKey: chatRoomKeys.tags,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/tags', { schema: tagListResponse })).content.map((tag) => tag.name),
    staleTime: 60_000,
  });
}

/** One page of a ticket's messages, oldest first: the newest page, older ones, or a catch-up. */
export function fetchChatPage(query: { ticketId: number; before?: number; after?: number; limit?: number }) {
  return api.get<ChatPageResponse>('/api/csp/chat', { query, schema: chatPageResponse });
}

export function sendMessage(body: SendMessageBody) {
  return api.post('/api/csp/chat/secure', body, { schema: messageView });
}

export function changeTicketStatus(body: {
  ticketId: number;
  status: 'CLOSED' | 'RESOLVED';
  remarks: string;
  includeOtherActive: boolean;
}) {
  return api.put('/api/csp/chatRoom/status', body, { schema: changeStatusResponse });
}

export function transferTicket(body: {
  ticketId: number;
  assigneeId?: string | null;
  groupId?: string | null;
}) {
  return api.post('/api/csp/chatRoom/transfer', body, { schema: ticketSummary });
}

export function setTicketPriority(body: { ticketId: number; priority: TicketPriority }) {
  return api.post('/api/csp/chatRoom/priority', body, { schema: ticketSummary });
}

export function setTicketCategory(body: { ticketId: number; categoryId: string | null }) {
  return api.post('/api/csp/chatRoom/category', body, { schema: ticketSummary });
}

export function updateTicket(body: {
  ticketId: number;
  subject?: string | null;
  addTags?: string[];
  removeTags?: string[];
}) {
  return api.put('/api/csp/tickets', body, { schema: ticketSummary });
}

export function markTicketRead(ticketId: number) {
  return api.post('/api/csp/chatRoom/read', { ticketId }, { schema: ticketSummary });
}

export function sendTyping(ticketId: number, typing: boolean) {
  return api.post('/api/csp/chatRoom/typing', { ticketId, typing });
}

/**
 * Uploads a file the spec's way: ask for a link, then PUT the bytes to it. The bearer
 * token goes along only to our own origin; a presigned storage link must not get it.
 */
export async function uploadFile(file: File, signal?: AbortSignal) {
  const link = await api.get('/api/csp/upload/getLink', {
    query: { filename: file.name, contentType: file.type || 'application/octet-stream' },
    schema: uploadLinkResponse,
    signal,
  });
  if (!link.ok) return link;
  const target = new URL(link.data.uploadUrl, window.location.href);
  const headers: Record<string, string> = { 'content-type': file.type || 'application/octet-stream' };
  const token = getSession()?.accessToken;
  if (target.origin === window.location.origin && token) headers.authorization = `Bearer ${token}`;
  try {
    const response = await fetch(target, { method: 'PUT', body: file, headers, signal });
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      return {
        ok: false as const,
        error: {
          statusCode: response.status,
          error: 'upload',
          message: typeof body?.message === 'string' ? body.message : '',
        },
      };
    }
  } catch {
    return { ok: false as const, error: { statusCode: 0, error: 'upload', message: '' } };
  }
  return { ok: true as const, data: link.data };
}

/** Resolves a provider's media link into one the browser can open (core-inbox §7 media call). */
export async function resolveProviderMedia(media: string): Promise<string | null> {
  const result = await api.get('/api/csp/image', { query: { media }, schema: mediaImageResponse });
  return result.ok ? result.data.url : null;
}

/** The detail with one ticket field changed, for optimistic updates. */
export function withTicket(
  detail: TicketDetailResponse | undefined,
  change: Partial<TicketSummary>,
): TicketDetailResponse | undefined {
  return detail ? { ...detail, ticket: { ...detail.ticket, ...change } } : detail;
}
