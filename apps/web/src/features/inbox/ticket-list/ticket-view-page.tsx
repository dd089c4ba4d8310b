import { type InboxTab, inboxTabs, type TicketSummary } from '@app/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { IconAlertCircle, IconInbox } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../../shared/api-client';
import { currentLanguage } from '../../../shared/i18n';
import { PageHeader } from '../../../shared/page-header';
import { usePageTitle } from '../../../shared/use-page-title';
import { useSession } from '../../../shared/use-session';
import { agentsQueryOptions, groupsQueryOptions, ticketListQueryOptions } from '../inbox.queries';
import { NotificationPermissionPrompt } from '../notifications/notification-permission-prompt';
import { chatRoomHref } from '../shared/chat-room-link';
import { inboxErrorText } from '../shared/inbox-errors';
import { inboxScopeOfSession } from '../shared/inbox-scope';
import { clientTimezoneOf } from '../shared/inbox-time';
import { useToday } from '../shared/use-today';
import { ColumnChooser, useTicketColumns } from './column-chooser';
import { rowsOf } from './ticket-cache';
import type { CellContext } from './ticket-columns';
import { TicketFilterBar } from './ticket-filter-bar';
import {
  defaultTicketFilters,
  type TicketFilters,
  type TicketListParams,
  ticketFilterParams,
} from './ticket-filters';
import { SelectionBar, useTicketSelection } from './ticket-selection';
import { TicketTable } from './ticket-table';
import { useLastCounts } from './use-last-counts';
import { useTicketListRealtime } from './use-ticket-list-realtime';

type Sort = TicketListParams['sort'];

/** Names for the ids in the table, from the agents and groups lists. */
function useNameLookups(): Pick<CellContext, 'agentName' | 'groupName'> {
  const agents = useQuery(agentsQueryOptions());
  const groups = useQuery(groupsQueryOptions());
  return useMemo(() => {
    const agentNames = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
    const groupNames = new Map((groups.data ?? []).map((group) => [group.id, group.name]));
    return {
      agentName: (id) => (id ? (agentNames.get(id) ?? null) : null),
      groupName: (id) => (id ? (groupNames.get(id) ?? null) : null),
    };
  }, [agents.data, groups.data]);
}

/** /customer-service/ticket-view (core-inbox §3): every ticket, filtered, in a table. */
export function TicketViewPage() {
  const { t } = useTranslation();
  usePageTitle('inbox.ticketView.pageTitle');
  const session = useSession();
  const navigate = useNavigate();
  const zone = clientTimezoneOf(session);
  const scope = useMemo(
    () => (session ? inboxScopeOfSession(session) : { userId: '', seesAll: true, seesQueue: true }),
    [session],
  );
  useTicketListRealtime(scope);

  const today = useToday(zone);
  const defaults = useMemo<TicketFilters>(
    () => ({ ...defaultTicketFilters(zone), created: [today, today] }),
    [zone, today],
  );
  const [filters, setFilters] = useState(defaults);
  // At midnight a created range of exactly the day that ended follows the new day, so a table
  // left open overnight (the default is today) goes on showing today's new tickets.
  const [filtersDay, setFiltersDay] = useState(today);
  if (filtersDay !== today) {
    setFiltersDay(today);
    setFilters((current) =>
      current.created[0] === filtersDay && current.created[1] === filtersDay
        ? { ...current, created: [today, today] }
        : current,
    );
  }
  const [tab, setTab] = useState<InboxTab>('all');
  const [sort, setSort] = useState<Sort>('createdAt');
  const params = useMemo<TicketListParams>(
    () => ({ ...ticketFilterParams(filters, zone), tab, sort }),
    [filters, zone, tab, sort],
  );

  const list = useInfiniteQuery(ticketListQueryOptions('ticketList', params));
  const rows = useMemo(() => rowsOf(list.data), [list.data]);
  const counts = useLastCounts(list.data?.pages[0]?.counts);
  const columns = useTicketColumns();
  const names = useNameLookups();
  const context = useMemo<CellContext>(
    () => ({
      ...names,
      language: currentLanguage(),
      zone,
      statusLabel: (status) => t(`inbox.status.${status}`),
      priorityLabel: (priority) => t(`inbox.priority.${priority}`),
      selectRowLabel: (id) => t('inbox.table.selectRow', { id }),
      empty: t('common.notAvailable'),
    }),
    [names, zone, t],
  );
  const { selected, toggle, toggleAll, clear } = useTicketSelection(rows);
  const openTicket = useCallback(
    (ticket: TicketSummary) => void navigate({ href: chatRoomHref(ticket.id) }),
    [navigate],
  );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  const changeFilters = (next: typeof filters) => {
    setFilters(next);
    clear();
  };

  const empty = (
    <Center py={64} px="xl">
      <Stack align="center" gap={6} maw={360}>
        <IconInbox size={40} stroke={1.3} color="var(--mantine-color-gray-5)" />
        <Text fw={600}>{t('inbox.errors.noChatData')}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {t('inbox.ticketView.emptyHint')}
        </Text>
      </Stack>
    </Center>
  );

  return (
    <Stack gap={0} h="calc(100dvh - 64px - 2 * var(--mantine-spacing-xl))" mih={520}>
      <PageHeader title={t('inbox.ticketView.title')} description={t('inbox.ticketView.description')} />
      <Paper
        withBorder
        radius="lg"
        style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      >
        <Group px="md" pt={8} justify="space-between" align="center" wrap="nowrap">
          <Tabs
            value={tab}
            onChange={(value) => {
              if (!value) return;
              setTab(value as InboxTab);
              clear();
            }}
          >
            <Tabs.List style={{ borderBottom: 0 }}>
              {inboxTabs.map((name) => (
                <Tabs.Tab
                  key={name}
                  value={name}
                  data-testid={`tab-${name}`}
                  rightSection={
                    <Badge
                      size="sm"
                      variant={tab === name ? 'filled' : 'light'}
                      color={tab === name ? 'brand' : 'gray'}
                      data-testid={`tab-count-${name}`}
                      style={{ flexShrink: 0 }}
                    >
                      {counts ? counts[name] : '…'}
                    </Badge>
                  }
                >
                  {t(`inbox.tabs.${name}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          <Group gap="sm" wrap="nowrap">
            <NotificationPermissionPrompt variant="button" />
            {/* A native select: two fixed options need no searchable dropdown, and the
                combobox's code would be in the inbox's first load. */}
            <NativeSelect
              w={180}
              size="sm"
              aria-label={t('inbox.sort.label')}
              value={sort}
              onChange={(event) => setSort(event.currentTarget.value as Sort)}
              data={[
                { value: 'createdAt', label: t('inbox.sort.createdAt') },
                { value: 'lastMessageAt', label: t('inbox.sort.lastMessageAt') },
              ]}
            />
            <ColumnChooser columns={columns} />
          </Group>
        </Group>
        <Box px="md" py="sm" style={{ borderTop: '1px solid var(--app-border-subtle)' }}>
          <TicketFilterBar filters={filters} defaults={defaults} onChange={changeFilters} today={today} />
        </Box>
        {selected.size > 0 ? <SelectionBar count={selected.size} onClear={clear} /> : null}
        <Box style={{ flex: 1, minHeight: 0, borderTop: '1px solid var(--app-border-subtle)' }}>
          {list.isPending ? (
            <Stack gap={0} p="md">
              {Array.from({ length: 8 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
                <Skeleton key={index} h={28} my={12} radius="sm" />
              ))}
            </Stack>
          ) : list.isError && rows.length === 0 ? (
            <Alert m="md" color="red" variant="light" icon={<IconAlertCircle size={18} />}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{inboxErrorText(t, errorObjectOf(list.error))}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
                  {t('common.retry')}
                </Button>
              </Stack>
            </Alert>
          ) : (
            <TicketTable
              rows={rows}
              columns={columns}
              context={context}
              selected={selected}
              onToggle={toggle}
              onToggleAll={toggleAll}
              onOpen={openTicket}
              hasNextPage={hasNextPage}
              isFetchingNextPage={isFetchingNextPage}
              fetchNextPage={loadMore}
              nextPageError={
                // A later page failed: the rows already loaded stay, with the reason and a retry below.
                list.isFetchNextPageError ? (
                  <Alert m="md" color="red" variant="light" icon={<IconAlertCircle size={18} />}>
                    <Group gap="sm" justify="space-between">
                      <Text size="sm">{inboxErrorText(t, errorObjectOf(list.error))}</Text>
                      <Button size="xs" variant="light" color="red" onClick={loadMore}>
                        {t('common.retry')}
                      </Button>
                    </Group>
                  </Alert>
                ) : null
              }
              empty={empty}
            />
          )}
        </Box>
      </Paper>
    </Stack>
  );
}
