import type { MeResponse } from '@app/contracts';
import { Badge, Group, Switch } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataOrThrow, errorObjectOf } from '../../shared/api-client';
import { errorText } from '../../shared/i18n';
import { showSnackbar } from '../../shared/snackbar-store';
import { type AgentStatus, meQueryKey, meQueryOptions, setAgentStatus } from './identity.queries';

/**
 * The agent's ONLINE/OFFLINE switch. It moves at once and falls back if the server
 * refuses, so the agent sees the state the push service really holds.
 */
export function AgentAvailabilitySwitch({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useQuery(meQueryOptions());
  const status: AgentStatus = me.data?.user.agentStatus ?? 'ONLINE';

  const writeStatus = (next: AgentStatus) =>
    queryClient.setQueryData<MeResponse>(meQueryKey, (current) =>
      current ? { ...current, user: { ...current.user, agentStatus: next } } : current,
    );

  const mutation = useMutation({
    mutationFn: async (next: AgentStatus) => dataOrThrow(await setAgentStatus(next)).status,
    onMutate: (next) => {
      const previous = status;
      writeStatus(next);
      return { previous };
    },
    onSuccess: (saved) => {
      writeStatus(saved);
      showSnackbar(
        'bottom',
        t(saved === 'ONLINE' ? 'availability.updatedOnline' : 'availability.updatedOffline'),
        'success',
      );
    },
    onError: (error, _next, context) => {
      if (context) writeStatus(context.previous);
      showSnackbar('bottom', errorText(t, errorObjectOf(error)), 'error');
    },
  });

  const online = status === 'ONLINE';
  return (
    <Group gap="sm" wrap="nowrap" justify="space-between">
      <Switch
        size={size}
        color="green"
        checked={online}
        disabled={me.isPending || mutation.isPending}
        onChange={(event) => mutation.mutate(event.currentTarget.checked ? 'ONLINE' : 'OFFLINE')}
        label={t('availability.switchLabel')}
        aria-label={t('availability.switchLabel')}
      />
      <Badge
        variant="dot"
        color={online ? 'green' : 'gray'}
        size={size === 'sm' ? 'sm' : 'md'}
        data-agent-status={status}
      >
        {online ? t('availability.online') : t('availability.offline')}
      </Badge>
    </Group>
  );
}
