import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../../shared/api-client';
import { currentLanguage } from '../../../shared/i18n';
import { PageHeader } from '../../../shared/page-header';
import { useSession } from '../../../shared/use-session';
import { agentsQueryOptions, type SearchSource, searchQueryOptions } from '../inbox.queries';
import { inboxErrorText } from '../shared/inbox-errors';
import { clientTimezoneOf } from '../shared/inbox-time';
import { useToday } from '../shared/use-today';
import { TicketFilterBar } from '../ticket-list/ticket-filter-bar';
import { DebouncedTextInput } from '../ticket-list/ticket-filter-inputs';
import { emptyTicketFilters, ticketFilterParams } from '../ticket-list/ticket-filters';
import { HistoryDownload } from './history-download';
import { type SearchHitView, SearchResultCard } from './search-result-card';

function Intro({ title, hint, icon }: { title: string; hint: string; icon: React.ReactNode }) {
  return (
    <Center py={72}>
      <Stack align="center" gap={8} maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="brand">
          {icon}
        </ThemeIcon>
        <Text fw={650}>{title}</Text>
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      </Stack>
    </Center>
  );
}

/**
 * The search over every message and ticket, shared by the chat history (plain: keyword,
 * dates, channel, status) and the advanced ticket search (every ticket filter). With no
 * filter it shows the latest chats, newest first; results come a page at a time.
 */
export function SearchScreen({ source }: { source: SearchSource }) {
  const { t } = useTranslation();
  const session = useSession();
  const zone = clientTimezoneOf(session);
  const today = useToday(zone);
  const language = currentLanguage();
  const defaults = useMemo(() => emptyTicketFilters(), []);
  const [filters, setFilters] = useState(defaults);
  const params = useMemo(() => ticketFilterParams(filters, zone), [filters, zone]);
  const search = useInfiniteQuery(searchQueryOptions(source, params));
  const agents = useQuery(agentsQueryOptions());
  const agentName = useMemo(() => {
    const names = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
    return (id: string | null) => (id ? (names.get(id) ?? null) : null);
  }, [agents.data]);
  const hits = useMemo<SearchHitView[]>(() => {
    const seen = new Set<string>();
    const all: SearchHitView[] = [];
    for (const page of search.data?.pages ?? []) {
      for (const hit of page.content) {
        const key = `${hit.ticket.id}:${hit.message?.id ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        all.push(hit);
      }
    }
    return all;
  }, [search.data]);

  const prefix = source === 'history' ? 'inbox.history' : 'inbox.advancedSearch';

  return (
    <Stack gap={0} maw={1180}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <PageHeader title={t(`${prefix}.title`)} description={t(`${prefix}.description`)} />
        <HistoryDownload params={params} created={filters.created} today={today} zone={zone} />
      </Group>
      <Paper withBorder radius="lg" p="md" mb="lg">
        <Stack gap="sm">
          <DebouncedTextInput
            size="md"
            radius="md"
            aria-label={t('inbox.filters.keyword')}
            placeholder={t('inbox.search.placeholder')}
            leftSection={<IconSearch size={18} />}
            value={filters.keyword}
            onCommit={(keyword) => setFilters((current) => ({ ...current, keyword }))}
            data-autofocus
          />
          <TicketFilterBar
            filters={filters}
            defaults={defaults}
            onChange={setFilters}
            today={today}
            showKeyword={false}
            withDrawer={source === 'advanced'}
          />
        </Stack>
      </Paper>

      {search.isPending ? (
        <Stack gap="sm">
          {Array.from({ length: 4 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <Skeleton key={index} h={104} radius="md" />
          ))}
        </Stack>
      ) : search.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{inboxErrorText(t, errorObjectOf(search.error))}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void search.refetch()}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : hits.length === 0 ? (
        <Intro
          icon={<IconSearch size={28} />}
          title={t('inbox.errors.noChatData')}
          hint={t('inbox.search.noResultsHint')}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" data-testid="search-count">
            {search.hasNextPage
              ? t('inbox.search.countMore', { count: hits.length })
              : t('inbox.search.count', { count: hits.length })}
          </Text>
          {hits.map((hit) => (
            <SearchResultCard
              key={`${hit.ticket.id}:${hit.message?.id ?? ''}`}
              hit={hit}
              language={language}
              zone={zone}
              agentName={agentName}
            />
          ))}
          <Box ta="center" py="sm">
            {search.hasNextPage ? (
              <Button
                variant="default"
                onClick={() => void search.fetchNextPage()}
                loading={search.isFetchingNextPage}
              >
                {t('inbox.search.loadMore')}
              </Button>
            ) : (
              <Text size="xs" c="dimmed">
                {t('inbox.search.end')}
              </Text>
            )}
          </Box>
        </Stack>
      )}
      {search.isFetching && !search.isPending && !search.isFetchingNextPage ? (
        <Center pos="fixed" bottom={24} left="50%" style={{ transform: 'translateX(-50%)' }}>
          <Loader size="sm" />
        </Center>
      ) : null}
    </Stack>
  );
}
