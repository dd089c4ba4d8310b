import type { InboxTab, TabCounts } from '@app/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Loader,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconInbox } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../../shared/api-client';
import { currentLanguage } from '../../../shared/i18n';
import { ticketListQueryOptions } from '../inbox.queries';
import { inboxErrorText } from '../shared/inbox-errors';
import { useNow } from '../shared/inbox-time';
import { ConversationRow, conversationRowHeight } from './conversation-row';
import { rowsOf } from './ticket-cache';
import { useLastCounts } from './use-last-counts';

/**
 * The agent's conversations: open chats, latest activity first, in the tabs their scope
 * allows. Rows come and go with the realtime events (see useTicketListRealtime).
 */
export function ConversationList({
  tabs,
  tab,
  onTabChange,
  zone,
  onCounts,
}: {
  tabs: ReadonlyArray<InboxTab>;
  tab: InboxTab;
  onTabChange: (tab: InboxTab) => void;
  zone: string;
  /** Told the tab counts whenever they change, for panels beside the list. */
  onCounts?: (counts: TabCounts) => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const now = useNow();
  const list = useInfiniteQuery(ticketListQueryOptions('chatRoom', { tab, sort: 'lastMessageAt' }));
  const rows = useMemo(() => rowsOf(list.data), [list.data]);
  const counts = useLastCounts(list.data?.pages[0]?.counts);
  useEffect(() => {
    if (counts) onCounts?.(counts);
  }, [counts, onCounts]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => conversationRowHeight,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (lastIndex >= rows.length - 8 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Paper
      withBorder
      radius="lg"
      h="100%"
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Box px="md" pt="md">
        <Title order={2} fz="md" fw={650} mb="xs">
          {t('inbox.list.title')}
        </Title>
        <Tabs value={tab} onChange={(value) => value && onTabChange(value as InboxTab)}>
          <Tabs.List>
            {tabs.map((name) => (
              <Tabs.Tab
                key={name}
                value={name}
                data-testid={`tab-${name}`}
                rightSection={
                  counts ? (
                    <Badge
                      size="sm"
                      variant={tab === name ? 'filled' : 'light'}
                      color={tab === name ? 'brand' : 'gray'}
                      data-testid={`tab-count-${name}`}
                      style={{ flexShrink: 0 }}
                    >
                      {counts[name]}
                    </Badge>
                  ) : null
                }
              >
                {t(`inbox.tabs.${name}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </Box>
      <Box
        ref={scrollRef}
        style={{ flex: 1, overflowY: 'auto', position: 'relative' }}
        data-testid="conversation-list"
      >
        {list.isPending ? (
          <Stack gap={0}>
            {Array.from({ length: 7 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
              <Box key={index} px="md" py="sm" style={{ borderBottom: '1px solid var(--app-border-subtle)' }}>
                <Skeleton h={12} w="55%" mb={8} />
                <Skeleton h={10} w="85%" />
              </Box>
            ))}
          </Stack>
        ) : list.isError ? (
          <Alert m="md" color="red" variant="light" icon={<IconAlertCircle size={18} />}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{inboxErrorText(t, errorObjectOf(list.error))}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
                {t('common.retry')}
              </Button>
            </Stack>
          </Alert>
        ) : rows.length === 0 ? (
          <Center h="100%" p="xl">
            <Stack align="center" gap={6} maw={260}>
              <IconInbox size={36} stroke={1.4} color="var(--mantine-color-gray-5)" />
              <Text fw={600} size="sm">
                {t('inbox.errors.noChatData')}
              </Text>
              <Text size="xs" c="dimmed" ta="center">
                {t(`inbox.list.empty.${tab}`)}
              </Text>
            </Stack>
          </Center>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => (
              <div
                key={rows[item.index].id}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <ConversationRow ticket={rows[item.index]} language={language} zone={zone} now={now} />
              </div>
            ))}
          </div>
        )}
        {isFetchingNextPage ? (
          <Center py="sm">
            <Loader size="xs" />
          </Center>
        ) : null}
      </Box>
    </Paper>
  );
}
