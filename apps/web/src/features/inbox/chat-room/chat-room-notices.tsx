import type { TicketSummary } from '@app/contracts';
import { Alert, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconClockExclamation, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dateTimeOf } from './chat-dates';
import classes from './chat-room.module.css';
import { agentsQueryOptions } from './chat-room.queries';

/** The 24-hour expiry banner (core-inbox §4; commerce "Chat"). */
export function ExpiryBanner({ onlyResolve }: { onlyResolve: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="orange"
      variant="light"
      radius={0}
      py={8}
      icon={<IconClockExclamation size={18} />}
      title={t('chatRoom.expired.title')}
      data-testid="expiry-banner"
    >
      <Text size="xs">
        {t('chatRoom.expired.description')}
        {onlyResolve ? ` ${t('chatRoom.expired.onlyResolve')}` : ''}
      </Text>
    </Alert>
  );
}

/** Where the composer would be on a closed or resolved chat: who ended it, and when. */
export function ClosedNotice(props: { ticket: TicketSummary; language: string; timeZone: string }) {
  const { t } = useTranslation();
  const agents = useQuery(agentsQueryOptions());
  const { ticket } = props;
  const name = agents.data?.find((agent) => agent.id === ticket.closedBy)?.name;
  const date = ticket.closedAt ? dateTimeOf(ticket.closedAt, props.language, props.timeZone) : '';
  const key = `chatRoom.closedNotice.${ticket.status === 'RESOLVED' ? 'resolved' : 'closed'}${name ? 'By' : ''}`;
  return (
    <div className={classes.composer} data-testid="closed-notice">
      <Group gap="xs" justify="center" wrap="nowrap">
        <IconLock size={16} color="var(--mantine-color-dimmed)" />
        <Text size="sm" c="dimmed">
          {t(key, { date, name })}
        </Text>
      </Group>
    </div>
  );
}

/** Where the composer would be for someone who may read but not answer (Supervisor 1). */
export function ReadOnlyNotice() {
  const { t } = useTranslation();
  return (
    <div className={classes.composer} data-testid="read-only-notice">
      <Text size="sm" c="dimmed" ta="center">
        {t('chatRoom.readOnly')}
      </Text>
    </div>
  );
}

/** The room's shape while the ticket loads, so nothing jumps when it arrives. */
export function ChatRoomSkeleton() {
  return (
    <div className={classes.room}>
      <div className={classes.conversation}>
        <div className={classes.header}>
          <Group gap="sm">
            <Skeleton circle height={38} />
            <Stack gap={6}>
              <Skeleton height={14} width={180} />
              <Skeleton height={10} width={240} />
            </Stack>
          </Group>
        </div>
        <Stack gap="md" p="xl" style={{ flex: 1 }}>
          {[220, 300, 180, 260].map((width, index) => (
            <Skeleton key={width} height={44} width={width} radius="lg" ml={index % 2 ? 'auto' : 0} />
          ))}
        </Stack>
      </div>
      <div className={classes.panel} />
    </div>
  );
}
