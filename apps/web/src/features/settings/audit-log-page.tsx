import '@mantine/dates/styles.css';
import { auditLogMaxRangeDays, defaultTimezone } from '@app/contracts';
import { Alert, Button, Card, Group, Loader, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconAlertCircle, IconCalendar, IconDownload } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../shared/api-client';
import { currentLanguage } from '../../shared/i18n';
import { PageHeader } from '../../shared/page-header';
import { showSnackbar } from '../../shared/snackbar-store';
import { usePageTitle } from '../../shared/use-page-title';
import { useSession } from '../../shared/use-session';
import { adminUsersQueryOptions } from '../admin/admin.queries';
import {
  type AuditLogFilters,
  auditErrorText,
  auditLogQueryOptions,
  auditTypesQueryOptions,
  downloadAuditLog,
} from './audit-log.queries';

dayjs.extend(utc);
dayjs.extend(timezone);

type DayRange = [string | null, string | null];

/** The business's zone: the log's days and times are the client's, not the browser's. */
function validZone(zone: string | undefined): string {
  if (!zone) return defaultTimezone;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return defaultTimezone;
  }
}

const daysIn = ([start, end]: DayRange) => (start && end ? dayjs(end).diff(dayjs(start), 'day') + 1 : 0);

function formatTime(iso: string, language: string, zone: string): string {
  return new Intl.DateTimeFormat(language === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: zone,
  }).format(new Date(iso));
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** /setting/logs: who did what and when, filtered by days (at most 30), type and user. */
export function AuditLogPage() {
  const { t } = useTranslation();
  usePageTitle('auditLog.pageTitle');
  const language = currentLanguage();
  const zone = validZone(useSession()?.claims.sub.clientTimezone);
  const today = dayjs().tz(zone).format('YYYY-MM-DD');
  const [range, setRange] = useState<DayRange>(() => [
    dayjs(today).subtract(6, 'day').format('YYYY-MM-DD'),
    today,
  ]);
  const [type, setType] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  const tooLong = daysIn(range) > auditLogMaxRangeDays;
  const complete = Boolean(range[0] && range[1]);
  const filters = useMemo<AuditLogFilters | null>(() => {
    if (!range[0] || !range[1] || tooLong) return null;
    return {
      from: dayjs.tz(range[0], zone).startOf('day').toISOString(),
      to: dayjs.tz(range[1], zone).endOf('day').toISOString(),
      type: type ?? undefined,
      userId: userId ?? undefined,
    };
  }, [range, zone, type, userId, tooLong]);

  const rows = useInfiniteQuery({
    ...auditLogQueryOptions(filters ?? { from: '', to: '' }),
    enabled: filters !== null,
  });
  const types = useQuery(auditTypesQueryOptions());
  // Only admins may list users; without that right the user filter is simply left out.
  const users = useQuery({ ...adminUsersQueryOptions(''), retry: false });
  const entries = rows.data?.pages.flatMap((page) => page.content) ?? [];

  const download = async () => {
    if (!filters) return;
    setDownloading(true);
    const result = await downloadAuditLog(filters);
    setDownloading(false);
    if (!result.ok) {
      showSnackbar('bottom', auditErrorText(t, result.error), 'error');
      return;
    }
    saveBlob(result.blob, `audit-log-${range[0]}_${range[1]}.csv`);
  };

  return (
    <>
      <PageHeader title={t('auditLog.title')} description={t('auditLog.subtitle')} />
      <Card padding="lg" mb="lg">
        <Group align="flex-end" gap="md" wrap="wrap">
          <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
            <DatePickerInput
              type="range"
              allowSingleDateInRange
              label={t('auditLog.filters.range')}
              valueFormat="D MMM YYYY"
              leftSection={<IconCalendar size={16} />}
              maxDate={today}
              value={range}
              onChange={(value) => setRange([value[0] ?? null, value[1] ?? null])}
              error={tooLong ? t('auditLog.errors.rangeTooLong') : undefined}
              w={260}
            />
          </DatesProvider>
          <Select
            label={t('auditLog.filters.type')}
            placeholder={t('auditLog.filters.allTypes')}
            data={types.data ?? []}
            value={type}
            onChange={setType}
            clearable
            searchable
            w={220}
          />
          {users.data ? (
            <Select
              label={t('auditLog.filters.user')}
              placeholder={t('auditLog.filters.allUsers')}
              data={users.data.content.map((user) => ({
                value: user.id,
                label: `${user.name} (${user.email})`,
              }))}
              value={userId}
              onChange={setUserId}
              clearable
              searchable
              w={260}
            />
          ) : null}
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={download}
            loading={downloading}
            disabled={!filters}
          >
            {t('auditLog.download')}
          </Button>
        </Group>
      </Card>

      {rows.isError ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} mb="lg">
          {auditErrorText(t, errorObjectOf(rows.error))}
        </Alert>
      ) : null}

      <Card padding={0}>
        <ScrollArea>
          <Table striped highlightOnHover verticalSpacing="sm" horizontalSpacing="md" miw={860}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={190}>{t('auditLog.columns.time')}</Table.Th>
                <Table.Th w={200}>{t('auditLog.columns.user')}</Table.Th>
                <Table.Th w={170}>{t('auditLog.columns.type')}</Table.Th>
                <Table.Th w={120}>{t('auditLog.columns.result')}</Table.Th>
                <Table.Th>{t('auditLog.columns.details')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <Text size="sm">{formatTime(entry.createdAt, language, zone)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {entry.userName ?? entry.userEmail ?? t('auditLog.system')}
                    </Text>
                    {entry.userName && entry.userEmail ? (
                      <Text size="xs" c="dimmed">
                        {entry.userEmail}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{entry.type}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{entry.result || '-'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text
                      size="xs"
                      ff="monospace"
                      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    >
                      {JSON.stringify(entry.event)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {rows.isPending && filters ? (
          <Group justify="center" p="lg">
            <Loader size="sm" aria-label={t('auditLog.loading')} />
          </Group>
        ) : null}
        {!rows.isPending && entries.length === 0 && complete && !tooLong ? (
          <Text c="dimmed" ta="center" p="lg">
            {t('auditLog.empty')}
          </Text>
        ) : null}
      </Card>
      {rows.hasNextPage ? (
        <Stack align="center" mt="md">
          <Button variant="light" onClick={() => void rows.fetchNextPage()} loading={rows.isFetchingNextPage}>
            {t('auditLog.loadMore')}
          </Button>
        </Stack>
      ) : null}
    </>
  );
}
