import '@mantine/dates/styles.css';
import 'dayjs/locale/id';
import { channelList, ticketStatusFilters } from '@app/contracts';
import { MultiSelect, SimpleGrid, TagsInput, TextInput } from '@mantine/core';
import { DatePickerInput, type DatePickerInputProps, type DatePickerPreset } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type ComponentProps, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { agentsQueryOptions, groupsQueryOptions, tagsQueryOptions } from '../inbox.queries';
import type { DayRange } from '../shared/inbox-time';
import type { TicketFilters } from './ticket-filters';

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

/** Handy ranges beside the calendar; days are the client's days (see inbox-time). */
export function useRangePresets(today: string): DatePickerPreset<'range'>[] {
  const { t } = useTranslation();
  const day = dayjs(today);
  return [
    { value: [today, today], label: t('inbox.filters.presets.today') },
    {
      value: [day.subtract(1, 'day').format('YYYY-MM-DD'), day.subtract(1, 'day').format('YYYY-MM-DD')],
      label: t('inbox.filters.presets.yesterday'),
    },
    { value: [day.subtract(6, 'day').format('YYYY-MM-DD'), today], label: t('inbox.filters.presets.last7') },
    {
      value: [day.subtract(29, 'day').format('YYYY-MM-DD'), today],
      label: t('inbox.filters.presets.last30'),
    },
    {
      value: [day.startOf('month').format('YYYY-MM-DD'), today],
      label: t('inbox.filters.presets.thisMonth'),
    },
  ];
}

/** A day range picker in the inbox's style. */
export function DayRangeInput({
  value,
  onChange,
  today,
  ...props
}: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  today: string;
} & Omit<DatePickerInputProps<'range'>, 'value' | 'onChange' | 'type'>) {
  const presets = useRangePresets(today);
  return (
    <DatePickerInput
      type="range"
      allowSingleDateInRange
      clearable
      valueFormat="D MMM YYYY"
      leftSection={<IconCalendar size={16} />}
      maxDate={today}
      presets={presets}
      {...props}
      value={value}
      onChange={(range) => onChange([range[0] ?? null, range[1] ?? null])}
    />
  );
}

/**
 * Every default filter field of core-inbox §3, laid out for the filter drawer. Custom
 * fields are left out until the client can define some.
 */
export function TicketFilterFields({
  filters,
  onChange,
  today,
}: {
  filters: TicketFilters;
  onChange: (filters: TicketFilters) => void;
  today: string;
}) {
  const { t } = useTranslation();
  const choices = useFilterChoices();
  const set = <K extends keyof TicketFilters>(key: K, value: TicketFilters[K]) =>
    onChange({ ...filters, [key]: value });
  const multi = {
    searchable: true,
    clearable: true,
    hidePickedOptions: true,
    maxDropdownHeight: 240,
  } as const;
  const anyWhenEmpty = (values: ReadonlyArray<string>) =>
    values.length === 0 ? t('inbox.filters.any') : undefined;

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      <TextInput
        label={t('inbox.filters.keyword')}
        placeholder={t('inbox.filters.keywordPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={filters.keyword}
        onChange={(event) => set('keyword', event.currentTarget.value)}
      />
      <TextInput
        label={t('inbox.filters.customerInfo')}
        placeholder={t('inbox.filters.customerInfoPlaceholder')}
        value={filters.customerInfo}
        onChange={(event) => set('customerInfo', event.currentTarget.value)}
      />
      <DayRangeInput
        label={t('inbox.filters.created')}
        placeholder={t('inbox.filters.anyDate')}
        value={filters.created}
        onChange={(range) => set('created', range)}
        today={today}
      />
      <DayRangeInput
        label={t('inbox.filters.closed')}
        placeholder={t('inbox.filters.anyDate')}
        value={filters.closed}
        onChange={(range) => set('closed', range)}
        today={today}
      />
      <TextInput
        label={t('inbox.filters.remarksOrSubject')}
        value={filters.remarksOrSubject}
        onChange={(event) => set('remarksOrSubject', event.currentTarget.value)}
      />
      <TagsInput
        label={t('inbox.filters.tags')}
        data={choices.tags}
        value={filters.tags}
        placeholder={anyWhenEmpty(filters.tags)}
        onChange={(value) => set('tags', value)}
        clearable
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.channel')}
        data={choices.channels}
        value={filters.mediaPlatform}
        placeholder={anyWhenEmpty(filters.mediaPlatform)}
        onChange={(value) => set('mediaPlatform', value as TicketFilters['mediaPlatform'])}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.status')}
        data={choices.statuses}
        value={filters.status}
        placeholder={anyWhenEmpty(filters.status)}
        onChange={(value) => set('status', value as TicketFilters['status'])}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.priority')}
        data={choices.priorities}
        value={filters.priority}
        placeholder={anyWhenEmpty(filters.priority)}
        onChange={(value) => set('priority', value)}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.agent')}
        data={choices.agents}
        value={filters.csId}
        placeholder={anyWhenEmpty(filters.csId)}
        onChange={(value) => set('csId', value)}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.group')}
        data={choices.groups}
        value={filters.csGroup}
        placeholder={anyWhenEmpty(filters.csGroup)}
        onChange={(value) => set('csGroup', value)}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.closedBy')}
        data={choices.agents}
        value={filters.closedBy}
        placeholder={anyWhenEmpty(filters.closedBy)}
        onChange={(value) => set('closedBy', value)}
      />
      <MultiSelect
        {...multi}
        label={t('inbox.filters.createdBy')}
        data={choices.agents}
        value={filters.createdBy}
        placeholder={anyWhenEmpty(filters.createdBy)}
        onChange={(value) => set('createdBy', value)}
      />
    </SimpleGrid>
  );
}
