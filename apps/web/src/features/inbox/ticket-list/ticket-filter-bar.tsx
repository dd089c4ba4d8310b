import { Badge, Button, Drawer, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n';
import {
  DayRangeInput,
  DebouncedTextInput,
  TicketFilterFields,
  useFilterChoices,
} from './ticket-filter-fields';
import { changedFilterCount, type TicketFilters } from './ticket-filters';

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
  const language = currentLanguage();
  const choices = useFilterChoices();
  const [opened, { open, close }] = useDisclosure(false);
  const [draft, setDraft] = useState(filters);
  const changed = changedFilterCount(filters, defaults);
  const set = <K extends keyof TicketFilters>(key: K, value: TicketFilters[K]) =>
    onChange({ ...filters, [key]: value });

  const openDrawer = () => {
    setDraft(filters);
    open();
  };

  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
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
          <DayRangeInput
            w={254}
            size="sm"
            aria-label={t('inbox.filters.created')}
            placeholder={t('inbox.filters.createdAny')}
            value={filters.created}
            onChange={(range) => set('created', range)}
            today={today}
          />
          <MultiSelect
            w={142}
            size="sm"
            aria-label={t('inbox.filters.channel')}
            placeholder={filters.mediaPlatform.length === 0 ? t('inbox.filters.allChannels') : undefined}
            data={choices.channels}
            value={filters.mediaPlatform}
            onChange={(value) => set('mediaPlatform', value as TicketFilters['mediaPlatform'])}
            clearable
            hidePickedOptions
            styles={{ pillsList: { flexWrap: 'nowrap', overflow: 'hidden' } }}
          />
          <MultiSelect
            w={142}
            size="sm"
            aria-label={t('inbox.filters.status')}
            placeholder={filters.status.length === 0 ? t('inbox.filters.allStatuses') : undefined}
            data={choices.statuses}
            value={filters.status}
            onChange={(value) => set('status', value as TicketFilters['status'])}
            clearable
            hidePickedOptions
            styles={{ pillsList: { flexWrap: 'nowrap', overflow: 'hidden' } }}
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

      <Drawer
        opened={opened}
        onClose={close}
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
          <TicketFilterFields filters={draft} onChange={setDraft} today={today} />
          <Group justify="space-between" pt="sm" style={{ borderTop: '1px solid var(--app-border-subtle)' }}>
            <Button variant="subtle" color="gray" onClick={() => setDraft(defaults)}>
              {t('inbox.filters.reset')}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={close}>
                {t('inbox.filters.cancel')}
              </Button>
              <Button
                onClick={() => {
                  onChange(draft);
                  close();
                }}
              >
                {t('inbox.filters.apply')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Drawer>
    </DatesProvider>
  );
}
