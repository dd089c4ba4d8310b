import type { TicketSummary } from '@app/contracts';
import { Box, Group, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import { ChannelIcon } from '../../../shared/channel-badge';
import { ChatRoomLink } from '../shared/chat-room-link';
import { formatTimeAgo } from '../shared/inbox-time';
import { ExpiryWarning, PriorityLabel, UnreadCount } from '../shared/ticket-badges';
import classes from './ticket-lists.module.css';

export const conversationRowHeight = 72;

/**
 * One conversation of the agent's list: who, where, the last words and how long ago,
 * with what needs the eye first (unread, priority, a closing 24-hour window).
 */
export const ConversationRow = memo(function ConversationRow({
  ticket,
  language,
  zone,
  now,
}: {
  ticket: TicketSummary;
  language: string;
  zone: string;
  now: Date;
}) {
  const unread = ticket.unreadCount > 0;
  return (
    <ChatRoomLink
      ticketId={ticket.id}
      data-testid="conversation-row"
      data-ticket-id={ticket.id}
      className={classes.conversationRow}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        height: conversationRowHeight,
        padding: '0 var(--mantine-spacing-md)',
        color: 'inherit',
        textDecoration: 'none',
        borderBottom: '1px solid var(--app-border-subtle)',
      }}
    >
      <ChannelIcon code={ticket.mediaPlatform} size={18} />
      <Stack gap={3} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="sm" fw={unread ? 700 : 600} truncate>
            {ticket.customer.name}
          </Text>
          <Text size="xs" c={unread ? 'brand.8' : 'dimmed'} fw={unread ? 600 : 400} style={{ flexShrink: 0 }}>
            {formatTimeAgo(ticket.lastMessageAt, language, zone, now)}
          </Text>
        </Group>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="xs" c={unread ? undefined : 'dimmed'} truncate style={{ flex: 1, minWidth: 0 }}>
            {ticket.lastMessagePreview || '\u00a0'}
          </Text>
          <Box style={{ display: 'flex', gap: 6, alignItems: 'center', flexShrink: 0 }}>
            <ExpiryWarning ticket={ticket} now={now} />
            <PriorityLabel priority={ticket.priority} quiet />
            <UnreadCount count={ticket.unreadCount} />
          </Box>
        </Group>
      </Stack>
    </ChatRoomLink>
  );
});
