import { type InboxTab, inboxTopics, type TabCounts } from '@app/contracts';
import { Box, Center, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox, IconMessageCircle, IconUserCheck, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { realtimeEvents } from '../../shared/realtime-events';
import type { Session } from '../../shared/session';
import { meQueryOptions } from '../identity/identity.queries';
import { inboxKeys, unreadCountQueryOptions } from './inbox.queries';
import { NotificationPermissionPrompt } from './notifications/notification-permission-prompt';
import { inboxScopeOfSession } from './shared/inbox-scope';
import { clientTimezoneOf } from './shared/inbox-time';
import { ConversationList } from './ticket-list/conversation-list';
import { useTicketListRealtime } from './ticket-list/use-ticket-list-realtime';

function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: number | undefined }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color="brand" size={36} radius="md">
          {icon}
        </ThemeIcon>
        <Stack gap={0}>
          <Text fz={22} fw={700} lh={1.1}>
            {value ?? '–'}
          </Text>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * Keeps the unread total current: new messages and reads change it, and a burst of
 * messages asks the server once, a moment after the burst.
 */
function useUnreadFollowsMessages() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: inboxKeys.unread() }), 1000);
    };
    const stops = [
      realtimeEvents.on(inboxTopics.messageCreated, refresh),
      realtimeEvents.on(inboxTopics.ticketUpdated, refresh),
    ];
    return () => {
      if (timer) clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [queryClient]);
}

/** The right pane before a chat is chosen: a greeting, the day's numbers, notifications. */
function WelcomePanel({ counts }: { counts: TabCounts | null }) {
  const { t } = useTranslation();
  const me = useQuery(meQueryOptions());
  const unread = useQuery(unreadCountQueryOptions());
  useUnreadFollowsMessages();
  return (
    <Paper withBorder radius="lg" h="100%" p="xl" style={{ overflowY: 'auto' }}>
      <Center h="100%">
        <Stack maw={520} w="100%" gap="lg">
          <Stack gap={6} align="center" ta="center">
            <ThemeIcon variant="light" color="brand" size={64} radius="xl">
              <IconInbox size={34} stroke={1.5} />
            </ThemeIcon>
            <Title order={2} fz={22} fw={650}>
              {me.data ? t('inbox.welcome.greeting', { name: me.data.user.name }) : t('inbox.welcome.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('inbox.welcome.description')}
            </Text>
          </Stack>
          <SimpleGrid cols={3} spacing="sm">
            <Stat icon={<IconUserCheck size={20} />} label={t('inbox.welcome.mine')} value={counts?.mine} />
            <Stat
              icon={<IconUsers size={20} />}
              label={t('inbox.welcome.waiting')}
              value={counts?.unassigned}
            />
            <Stat
              icon={<IconMessageCircle size={20} />}
              label={t('inbox.welcome.unread')}
              value={unread.data?.total}
            />
          </SimpleGrid>
          <NotificationPermissionPrompt />
        </Stack>
      </Center>
    </Paper>
  );
}

/** The agent's inbox: their conversation list beside the welcome panel. */
export function AgentInbox({ session }: { session: Session }) {
  const scope = inboxScopeOfSession(session);
  useTicketListRealtime(scope);
  const tabs: InboxTab[] = ['mine'];
  if (scope.seesQueue) tabs.push('unassigned');
  if (scope.seesAll) tabs.push('all');
  const [tab, setTab] = useState<InboxTab>('mine');
  const [counts, setCounts] = useState<TabCounts | null>(null);
  const zone = clientTimezoneOf(session);

  return (
    <Box h="calc(100dvh - 64px - 2 * var(--mantine-spacing-xl))" mih={480}>
      <Group h="100%" gap="lg" align="stretch" wrap="nowrap">
        <Box w={400} miw={320} style={{ flexShrink: 0 }}>
          <ConversationList tabs={tabs} tab={tab} onTabChange={setTab} zone={zone} onCounts={setCounts} />
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }} visibleFrom="md">
          <WelcomePanel counts={counts} />
        </Box>
      </Group>
    </Box>
  );
}
