import '@mantine/dates/styles.css';
import 'dayjs/locale/id';
import {
  Button,
  Drawer,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import {
  DatePickerInput,
  type DatePickerInputProps,
  type DatePickerPreset,
  DatesProvider,
} from '@mantine/dates';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { type ComponentProps, type ReactNode, type Ref, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n';
import type { DayRange } from '../shared/inbox-time';
import { useFilterChoices } from './ticket-filter-inputs';
import type { TicketFilters } from './ticket-filters';

// The date pickers (@mantine/dates and its styles), the multi-selects and the filter drawer:
// the filter bar loads this module when the user first reaches for one of them.
export { DebouncedTextInput, useFilterChoices } from './ticket-filter-inputs';

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
  /** The picker's button (React 19 passes refs as props). */
  ref?: Ref<HTMLButtonElement>;
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

/** The calendars speak the user's language, and weeks start on Monday. */
function FilterDatesProvider({ children }: { children: ReactNode }) {
  return (
    <DatesProvider settings={{ locale: currentLanguage(), firstDayOfWeek: 1 }}>{children}</DatesProvider>
  );
}

/**
 * The filter bar's day range picker, which replaces its stand-in once this module has
 * loaded; `openOnMount` opens the calendar the user clicked the stand-in for.
 */
export function DayRangeField({
  openOnMount = false,
  ...props
}: ComponentProps<typeof DayRangeInput> & { openOnMount?: boolean }) {
  const input = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!openOnMount) return;
    input.current?.focus();
    input.current?.click();
  }, [openOnMount]);
  return (
    <FilterDatesProvider>
      <DayRangeInput ref={input} {...props} />
    </FilterDatesProvider>
  );
}

/** A multi-select of the filter bar in place of its stand-in; `openOnMount` opens its list. */
export function FilterMultiSelect({
  openOnMount = false,
  ...props
}: ComponentProps<typeof MultiSelect> & { openOnMount?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (openOnMount) input.current?.focus();
  }, [openOnMount]);
  return <MultiSelect ref={input} defaultDropdownOpened={openOnMount} {...props} />;
}

/** The drawer with every filter field; the changes apply only with its Apply button. */
export function TicketFilterDrawer({
  opened,
  onClose,
  draft,
  onDraftChange,
  defaults,
  onApply,
  today,
}: {
  opened: boolean;
  onClose: () => void;
  draft: TicketFilters;
  onDraftChange: (filters: TicketFilters) => void;
  defaults: TicketFilters;
  onApply: (filters: TicketFilters) => void;
  today: string;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={560}
      title={
        <Text fw={650} size="lg">
          {t('inbox.filters.title')}
        </Text>
      }
    >
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          {t('inbox.filters.description')}
        </Text>
        <TicketFilterFields filters={draft} onChange={onDraftChange} today={today} />
        <Group justify="space-between" pt="sm" style={{ borderTop: '1px solid var(--app-border-subtle)' }}>
          <Button variant="subtle" color="gray" onClick={() => onDraftChange(defaults)}>
            {t('inbox.filters.reset')}
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('inbox.filters.cancel')}
            </Button>
            <Button
              onClick={() => {
                onApply(draft);
                onClose();
              }}
            >
              {t('inbox.filters.apply')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Drawer>
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
    <FilterDatesProvider>
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
    </FilterDatesProvider>
  );
}
