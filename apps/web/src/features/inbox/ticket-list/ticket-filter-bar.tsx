import { Badge, Button, CloseButton, Group, Input, InputBase } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAdjustmentsHorizontal,
  IconCalendar,
  IconChevronDown,
  IconFilterOff,
  IconSearch,
} from '@tabler/icons-react';
import {
  type ComponentProps,
  type CSSProperties,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n';
import type { DayRange } from '../shared/inbox-time';
import { DebouncedTextInput, useFilterChoices } from './ticket-filter-inputs';
import { changedFilterCount, type TicketFilters } from './ticket-filters';

/**
 * The date pickers (@mantine/dates, dayjs locales, their styles) are not needed to show the
 * list: they load when the user reaches for a date field or the drawer, not on first paint.
 */
const loadDatePickers = () => import('./ticket-filter-fields');
const DayRangeField = lazy(() => loadDatePickers().then((module) => ({ default: module.DayRangeField })));
const FilterMultiSelect = lazy(() =>
  loadDatePickers().then((module) => ({ default: module.FilterMultiSelect })),
);
const TicketFilterDrawer = lazy(() =>
  loadDatePickers().then((module) => ({ default: module.TicketFilterDrawer })),
);
function preloadDatePickers() {
  void loadDatePickers().catch(() => undefined);
}

/** "22 Nov 2026 – 23 Nov 2026", as the picker's `D MMM YYYY` shows a range. */
function dayRangeLabel(range: DayRange, language: string): string {
  const format = new Intl.DateTimeFormat(language === 'id' ? 'id-ID' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return range
    .filter((day): day is string => day !== null)
    .map((day) => format.format(new Date(`${day}T00:00:00Z`)))
    .join(' – ');
}

/** The clear button of a stand-in, named after its field ("Hapus filter Kanal"). */
function ClearFilterButton({ field, onClear }: { field: string | undefined; onClear: () => void }) {
  const { t } = useTranslation();
  return <CloseButton size="sm" aria-label={t('inbox.filters.clearField', { field })} onClick={onClear} />;
}

/**
 * The created-date field of the bar: a stand-in that looks like the picker and can clear the
 * range, until the user opens it; then the picker loads and opens in its place.
 */
function LazyDayRangeInput({
  value,
  onChange,
  placeholder,
  ...props
}: Omit<ComponentProps<typeof DayRangeField>, 'openOnMount'> & { placeholder: string }) {
  const [wanted, setWanted] = useState(false);
  const standIn = (
    <InputBase
      component="button"
      type="button"
      pointer
      w={props.w}
      size={props.size}
      aria-label={props['aria-label']}
      leftSection={<IconCalendar size={16} />}
      rightSection={
        value[0] ? (
          <ClearFilterButton field={props['aria-label']} onClear={() => onChange([null, null])} />
        ) : undefined
      }
      rightSectionPointerEvents="all"
      onPointerEnter={preloadDatePickers}
      onFocus={preloadDatePickers}
      onClick={() => setWanted(true)}
    >
      {value[0] ? (
        dayRangeLabel(value, currentLanguage())
      ) : (
        <Input.Placeholder>{placeholder}</Input.Placeholder>
      )}
    </InputBase>
  );
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <DayRangeField {...props} placeholder={placeholder} value={value} onChange={onChange} openOnMount />
    </Suspense>
  );
}

/**
 * A multi-select of the bar. While closed, a stand-in of the same size shows the first chosen
 * label and how many more ("WhatsApp +1", or the placeholder) and clears them. Opening it loads
 * the real one in its place as a checklist: the field keeps the same one-line summary instead of
 * chips (a 142-px field cut a chosen "WhatsApp" to "W"), the list ticks what is chosen, and
 * closing the list brings the stand-in back.
 */
function LazyMultiSelect({
  data,
  value,
  onChange,
  placeholder,
  ...props
}: Omit<ComponentProps<typeof FilterMultiSelect>, 'openOnMount' | 'data' | 'value' | 'onChange'> & {
  data: { value: string; label: string }[];
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const [wanted, setWanted] = useState(false);
  // Closed by Escape, the list leaves focus in its field: the stand-in takes it back.
  const standInRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const fieldId = useId();
  useEffect(() => {
    if (!wanted && refocus.current) {
      refocus.current = false;
      standInRef.current?.focus();
    }
  }, [wanted]);
  const close = () => {
    refocus.current = document.activeElement?.id === fieldId;
    setWanted(false);
  };
  const labels = value.map((chosen) => data.find((item) => item.value === chosen)?.label ?? chosen);
  const summary = labels.length > 1 ? `${labels[0]} +${labels.length - 1}` : labels[0];
  const standIn = (
    <InputBase
      ref={standInRef}
      component="button"
      type="button"
      pointer
      w={props.w}
      size={props.size}
      aria-label={props['aria-label']}
      title={labels.length > 1 ? labels.join(', ') : undefined}
      rightSection={
        value.length > 0 ? (
          <ClearFilterButton field={props['aria-label']} onClear={() => onChange([])} />
        ) : (
          <IconChevronDown size={16} />
        )
      }
      rightSectionPointerEvents={value.length > 0 ? 'all' : 'none'}
      onPointerEnter={preloadDatePickers}
      onFocus={preloadDatePickers}
      onClick={() => setWanted(true)}
      styles={{ input: { overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' } }}
    >
      {summary ?? <Input.Placeholder>{placeholder}</Input.Placeholder>}
    </InputBase>
  );
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <FilterMultiSelect
        {...props}
        data={data}
        value={value}
        onChange={onChange}
        placeholder={summary ?? placeholder}
        styles={{
          pill: { display: 'none' },
          // The summary is a value, not a hint: it keeps the text colour the stand-in has.
          input: summary
            ? ({ '--input-placeholder-color': 'var(--mantine-color-text)' } as CSSProperties)
            : {},
        }}
        comboboxProps={{ width: 220, position: 'bottom-start' }}
        id={fieldId}
        openOnMount
        onDropdownClose={close}
      />
    </Suspense>
  );
}

/**
 * The filter bar of the ticket table and the search screens: the filters used most sit
 * in the bar, every field is in the drawer, and one button goes back to the defaults.
 * `showKeyword` is off where the screen has its own, larger search box.
 */
export function TicketFilterBar({
  filters,
  defaults,
  onChange,
  today,
  showKeyword = true,
  withDrawer = true,
  children,
}: {
  filters: TicketFilters;
  defaults: TicketFilters;
  onChange: (filters: TicketFilters) => void;
  today: string;
  showKeyword?: boolean;
  /** Off on the plain history screen, which offers only the filters in the bar. */
  withDrawer?: boolean;
  /** Controls on the right of the bar (sort, columns). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const choices = useFilterChoices();
  const [opened, { open, close }] = useDisclosure(false);
  const [draft, setDraft] = useState(filters);
  const changed = changedFilterCount(filters, defaults);
  const set = <K extends keyof TicketFilters>(key: K, value: TicketFilters[K]) =>
    onChange({ ...filters, [key]: value });

  // The drawer mounts with its first opening and stays, so that it can animate its closing.
  const [drawerWanted, setDrawerWanted] = useState(false);
  const openDrawer = () => {
    setDraft(filters);
    setDrawerWanted(true);
    open();
  };

  return (
    <>
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap" align="flex-end" style={{ flex: 1 }}>
          {showKeyword ? (
            <DebouncedTextInput
              w={170}
              size="sm"
              aria-label={t('inbox.filters.keyword')}
              placeholder={t('inbox.filters.keywordPlaceholder')}
              leftSection={<IconSearch size={16} />}
              value={filters.keyword}
              onCommit={(value) => set('keyword', value)}
            />
          ) : null}
          <LazyDayRangeInput
            w={254}
            size="sm"
            aria-label={t('inbox.filters.created')}
            placeholder={t('inbox.filters.createdAny')}
            value={filters.created}
            onChange={(range) => set('created', range)}
            today={today}
          />
          <LazyMultiSelect
            w={142}
            size="sm"
            aria-label={t('inbox.filters.channel')}
            placeholder={t('inbox.filters.allChannels')}
            data={choices.channels}
            value={filters.mediaPlatform}
            onChange={(value) => set('mediaPlatform', value as TicketFilters['mediaPlatform'])}
          />
          <LazyMultiSelect
            w={142}
            size="sm"
            aria-label={t('inbox.filters.status')}
            placeholder={t('inbox.filters.allStatuses')}
            data={choices.statuses}
            value={filters.status}
            onChange={(value) => set('status', value as TicketFilters['status'])}
          />
          {withDrawer ? (
            <Button
              variant="default"
              size="sm"
              leftSection={<IconAdjustmentsHorizontal size={16} />}
              rightSection={
                changed > 0 ? (
                  <Badge size="xs" circle color="brand">
                    {changed}
                  </Badge>
                ) : null
              }
              onPointerEnter={preloadDatePickers}
              onClick={openDrawer}
            >
              {t('inbox.filters.more')}
            </Button>
          ) : null}
          {changed > 0 ? (
            <Button
              variant="subtle"
              color="gray"
              size="sm"
              leftSection={<IconFilterOff size={16} />}
              onClick={() => onChange(defaults)}
            >
              {t('inbox.filters.reset')}
            </Button>
          ) : null}
        </Group>
        {children ? (
          <Group gap="sm" wrap="nowrap">
            {children}
          </Group>
        ) : null}
      </Group>

      {drawerWanted ? (
        <Suspense fallback={null}>
          <TicketFilterDrawer
            opened={opened}
            onClose={close}
            draft={draft}
            onDraftChange={setDraft}
            defaults={defaults}
            onApply={onChange}
            today={today}
          />
        </Suspense>
      ) : null}
    </>
  );
}
