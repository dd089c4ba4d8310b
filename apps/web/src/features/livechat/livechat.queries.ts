import {
  type ErrorObject,
  type LivechatWidgetBody,
  livechatWidgetListResponse,
  livechatWidgetTopics,
  livechatWidgetView,
  messageResponse,
  uploadLinkResponse,
} from '@app/contracts';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type ApiResult, api, dataOrThrow, toErrorObject } from '../../shared/api-client';
import { realtimeEvents } from '../../shared/realtime-events';

export const livechatWidgetsKey = ['livechat', 'widgets'] as const;
export const widgetKey = (id: string) => [...livechatWidgetsKey, id] as const;

/** How often a widget not yet connected is asked for again, so the badge flips on its first load. */
export const connectionPollMs = 4000;

/** The client's widgets, for the list on the create page. */
export function widgetListQueryOptions() {
  return queryOptions({
    queryKey: livechatWidgetsKey,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/livechat/widgets', { schema: livechatWidgetListResponse })).content,
  });
}

/** One widget; polled while it is not connected. */
export function widgetQueryOptions(id: string) {
  return queryOptions({
    queryKey: widgetKey(id),
    queryFn: async () =>
      dataOrThrow(await api.get(`/api/livechat/widgets/${id}`, { schema: livechatWidgetView })),
    refetchInterval: (query) => (query.state.data && !query.state.data.connected ? connectionPollMs : false),
  });
}

export function createWidget(body: LivechatWidgetBody) {
  return api.post('/api/livechat/widgets', body, { schema: livechatWidgetView });
}

export function updateWidget(id: string, body: LivechatWidgetBody) {
  return api.put(`/api/livechat/widgets/${id}`, body, { schema: livechatWidgetView });
}

export function deleteWidget(id: string) {
  return api.request(`/api/livechat/widgets/${id}`, { method: 'DELETE', schema: messageResponse });
}

/**
 * Uploads a file the way the spec does (core-inbox §7): ask for an upload link, then PUT
 * the bytes to it. Answers the file id and a link to show it.
 */
export async function uploadFile(file: File): Promise<ApiResult<{ fileId: string; url: string }>> {
  const link = await api.get('/api/csp/upload/getLink', {
    query: { filename: file.name, contentType: file.type || 'application/octet-stream' },
    schema: uploadLinkResponse,
  });
  if (!link.ok) return link;
  let failure: ErrorObject | null = null;
  try {
    const response = await fetch(link.data.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
    if (!response.ok) failure = toErrorObject(response.status, await response.json().catch(() => null));
  } catch {
    failure = toErrorObject(0, null);
  }
  return failure
    ? { ok: false, error: failure }
    : { ok: true, data: { fileId: link.data.fileId, url: link.data.url } };
}

/** Keeps the widget screens current when a widget changes elsewhere (another tab, its first load). */
export function useLivechatWidgetEvents(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      realtimeEvents.on(livechatWidgetTopics.changed, () => {
        void queryClient.invalidateQueries({ queryKey: livechatWidgetsKey });
      }),
    [queryClient],
  );
}
