import { channelList, ticketStatusFilters } from '@app/contracts';
import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type ComponentProps, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { agentsQueryOptions, groupsQueryOptions, tagsQueryOptions } from '../inbox.queries';

// The filter bar's light parts: the date pickers (ticket-filter-fields) load only when used.

/** The choices of the select fields: agents, groups and tags come from the server. */
export function useFilterChoices() {
  const { t } = useTranslation();
  const agents = useQuery(agentsQueryOptions());
  const groups = useQuery(groupsQueryOptions());
  const tags = useQuery(tagsQueryOptions());
  return {
    channels: channelList.map((channel) => ({ value: channel.code, label: channel.name })),
    statuses: ticketStatusFilters.map((status) => ({ value: status, label: t(`inbox.status.${status}`) })),
    priorities: (['1', '2', '3'] as const).map((priority) => ({
      value: priority,
      label: t(`inbox.priority.${priority}`),
    })),
    agents: (agents.data ?? []).map((agent) => ({ value: agent.id, label: agent.name })),
    groups: (groups.data ?? []).map((group) => ({ value: group.id, label: group.name })),
    tags: tags.data ?? [],
  };
}

/**
 * A text filter that tells its change after the user pauses typing, so a list is not
 * fetched once per key; it follows the outside value when that changes (a reset).
 */
export function DebouncedTextInput({
  value,
  onCommit,
  ...props
}: { value: string; onCommit: (value: string) => void } & Omit<
  ComponentProps<typeof TextInput>,
  'value' | 'onChange'
>) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = useDebouncedCallback(onCommit, 400);
  return (
    <TextInput
      {...props}
      value={draft}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onCommit(draft);
      }}
    />
  );
}
