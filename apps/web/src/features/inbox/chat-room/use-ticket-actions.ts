import type { TicketDetailResponse, TicketPriority, TicketSummary } from '@app/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../../shared/api-client';
import { showSnackbar } from '../../../shared/snackbar-store';
import {
  chatRoomKeys,
  setTicketCategory,
  setTicketPriority,
  transferTicket,
  updateTicket,
  withTicket,
} from './chat-room.queries';
import type { TransferTarget } from './transfer-modal';
import { useChatErrorText } from './use-chat-error-text';

/**
 * The ticket's field changes. Each shows at once (the cached detail changes before the
 * call), is put back if the server refuses, and says how it went in the snackbar.
 */
export function useTicketActions(ticketId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorOf = useChatErrorText();
  const key = chatRoomKeys.detail(ticketId);

  const apply = useCallback(
    async (
      change: Partial<TicketSummary>,
      call: () => Promise<ApiResult<TicketSummary>>,
      doneKey: string,
    ) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<TicketDetailResponse>(key);
      queryClient.setQueryData<TicketDetailResponse>(key, (detail) => withTicket(detail, change));
      const result = await call();
      if (!result.ok) {
        if (before) queryClient.setQueryData(key, before);
        showSnackbar('bottom', errorOf(result.error), 'error');
        return false;
      }
      // The server's copy is the truth (it may have changed more than was asked, e.g. status).
      queryClient.setQueryData<TicketDetailResponse>(key, (detail) => withTicket(detail, result.data));
      showSnackbar('bottom', t(doneKey), 'success');
      return true;
    },
    [queryClient, key, errorOf, t],
  );

  const current = () => queryClient.getQueryData<TicketDetailResponse>(key)?.ticket;

  return {
    setPriority: (priority: TicketPriority) =>
      apply({ priority }, () => setTicketPriority({ ticketId, priority }), 'chatRoom.done.priority'),
    setCategory: (categoryId: string | null) =>
      apply({ categoryId }, () => setTicketCategory({ ticketId, categoryId }), 'chatRoom.done.category'),
    setSubject: (subject: string | null) =>
      apply({ subject }, () => updateTicket({ ticketId, subject }), 'chatRoom.done.subject'),
    setTags: (tags: string[]) => {
      const previous = current()?.tags ?? [];
      const addTags = tags.filter((tag) => !previous.includes(tag));
      const removeTags = previous.filter((tag) => !tags.includes(tag));
      if (!addTags.length && !removeTags.length) return Promise.resolve(true);
      return apply(
        { tags },
        () =>
          updateTicket({
            ticketId,
            ...(addTags.length ? { addTags } : {}),
            ...(removeTags.length ? { removeTags } : {}),
          }),
        'chatRoom.done.tags',
      );
    },
    transfer: (target: TransferTarget) =>
      apply(
        'assigneeId' in target
          ? { assigneeId: target.assigneeId, status: 'ASSIGNED' }
          : { groupId: target.groupId },
        () => transferTicket({ ticketId, ...target }),
        'chatRoom.done.transfer',
      ),
  };
}
