import { inboxLimits } from '@app/contracts';
import { Alert, Button, Popover, Stack, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconAlertCircle, IconDownload } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n';
import { showSnackbar } from '../../../shared/snackbar-store';
import { downloadHistory, saveFile } from '../inbox.queries';
import { inboxErrorText } from '../shared/inbox-errors';
import { type DayRange, dayRangeToInstants, daysInRange } from '../shared/inbox-time';
import { DayRangeInput } from '../ticket-list/ticket-filter-fields';

/** The download's range at first: the filter's created range when it fits, else the last week. */
function initialRange(created: DayRange, today: string): DayRange {
  if (created[0] && created[1] && daysInRange(created) <= inboxLimits.downloadMaxDays) return created;
  return [dayjs(today).subtract(6, 'day').format('YYYY-MM-DD'), today];
}

/**
 * Downloads the chat history of a date range as CSV (a file spreadsheets open), with the
 * screen's other filters. The range is held to 31 days here as on the server, whose
 * refusal ('chat history download up to 31 days') is shown translated all the same.
 */
export function HistoryDownload({
  params,
  created,
  today,
  zone,
}: {
  /** The screen's filters, as query parameters; the download's range replaces their created range. */
  params: Record<string, string | undefined>;
  created: DayRange;
  today: string;
  zone: string;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [range, setRange] = useState<DayRange>(() => initialRange(created, today));
  const [busy, setBusy] = useState(false);
  const tooLong = daysInRange(range) > inboxLimits.downloadMaxDays;
  const complete = Boolean(range[0] && range[1]);

  const download = async () => {
    const instants = dayRangeToInstants(range, zone);
    setBusy(true);
    const result = await downloadHistory(
      { ...params, createdFrom: instants.from, createdTo: instants.to, lang: currentLanguage() },
      `chat-history-${range[0]}_${range[1]}.csv`,
    );
    setBusy(false);
    if (!result.ok) {
      showSnackbar('bottom', inboxErrorText(t, result.error), 'error');
      return;
    }
    saveFile(result.blob, result.filename);
    setOpened(false);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={320}
      position="bottom-end"
      shadow="md"
      withArrow
      trapFocus
    >
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          onClick={() => {
            setRange(initialRange(created, today));
            setOpened((value) => !value);
          }}
        >
          {t('inbox.download.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <DatesProvider settings={{ locale: currentLanguage(), firstDayOfWeek: 1 }}>
          <Stack gap="sm">
            <Text fw={600} size="sm">
              {t('inbox.download.title')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('inbox.download.description', { days: inboxLimits.downloadMaxDays })}
            </Text>
            <DayRangeInput
              label={t('inbox.download.range')}
              value={range}
              onChange={setRange}
              today={today}
              clearable={false}
              popoverProps={{ withinPortal: false }}
            />
            {tooLong ? (
              <Alert color="orange" variant="light" p="xs" icon={<IconAlertCircle size={16} />}>
                <Text size="xs">{t('inbox.errors.downloadRange')}</Text>
              </Alert>
            ) : null}
            <Button
              leftSection={<IconDownload size={16} />}
              loading={busy}
              disabled={!complete || tooLong}
              onClick={() => void download()}
            >
              {t('inbox.download.submit')}
            </Button>
          </Stack>
        </DatesProvider>
      </Popover.Dropdown>
    </Popover>
  );
}
