import type { TicketSummary } from '@app/contracts';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelBadge } from '../../../shared/channel-badge';
import { ChatRoomLink } from '../shared/chat-room-link';
import { formatDateTimeShort } from '../shared/inbox-time';
import { PriorityLabel, StatusBadge } from '../shared/ticket-badges';
import { HighlightSnippet } from './highlight-snippet';
import classes from './search.module.css';

export interface SearchHitView {
  ticket: TicketSummary;
  message: { id: number; snippet: string; createdAt: string } | null;
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="xs" c="dimmed" span style={{ whiteSpace: 'nowrap' }}>
      {label}:{' '}
      <Text span size="xs" c="var(--mantine-color-text)" fw={500}>
        {children}
      </Text>
    </Text>
  );
}

/**
 * One search hit as history shows a chat (commerce "Chat as seen in history"): ticket,
 * customer and number, channel, agent, closing, remark, tags, priority, creation, last
 * reply and expiry, with the matching message when the match was in one.
 */
export const SearchResultCard = memo(function SearchResultCard({
  hit,
  language,
  zone,
  agentName,
}: {
  hit: SearchHitView;
  language: string;
  zone: string;
  agentName: (id: string | null) => string | null;
}) {
  const { t } = useTranslation();
  const { ticket, message } = hit;
  const when = (iso: string | null) => formatDateTimeShort(iso, language, zone);
  const empty = t('common.notAvailable');
  return (
    <ChatRoomLink ticketId={ticket.id} data-testid="search-hit" className={classes.hit}>
      <Paper withBorder radius="md" p="md" className={classes.hitCard}>
        <Stack gap={8}>
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <ChannelBadge code={ticket.mediaPlatform} />
              <Text fw={650} size="sm" truncate>
                {ticket.customer.name}
              </Text>
              {ticket.customer.phone || ticket.customer.email ? (
                <Text size="xs" c="dimmed" truncate>
                  {ticket.customer.phone ?? ticket.customer.email}
                </Text>
              ) : null}
            </Group>
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <PriorityLabel priority={ticket.priority} quiet />
              <StatusBadge ticket={ticket} />
              <Text size="xs" c="dimmed" ff="monospace">
                #{ticket.id}
              </Text>
            </Group>
          </Group>

          {message ? (
            <Group gap={8} wrap="nowrap" align="flex-start">
              <IconMessage
                size={15}
                color="var(--mantine-color-gray-5)"
                style={{ marginTop: 2, flexShrink: 0 }}
              />
              <HighlightSnippet snippet={message.snippet} size="sm" lineClamp={2} style={{ flex: 1 }} />
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {when(message.createdAt)}
              </Text>
            </Group>
          ) : ticket.subject ? (
            <Text size="sm" lineClamp={1}>
              {ticket.subject}
            </Text>
          ) : null}

          <Group gap="md" wrap="wrap" style={{ rowGap: 4 }}>
            <Meta label={t('inbox.columns.createdAt')}>{when(ticket.createdAt)}</Meta>
            <Meta label={t('inbox.search.lastReply')}>{when(ticket.lastMessageAt)}</Meta>
            <Meta label={t('inbox.columns.assigneeId')}>{agentName(ticket.assigneeId) ?? empty}</Meta>
            {ticket.closedAt ? (
              <>
                <Meta label={t('inbox.columns.closedBy')}>{agentName(ticket.closedBy) ?? empty}</Meta>
                <Meta label={t('inbox.columns.closedAt')}>{when(ticket.closedAt)}</Meta>
              </>
            ) : ticket.expiresAt ? (
              <Meta label={t('inbox.search.expiry')}>{when(ticket.expiresAt)}</Meta>
            ) : null}
            {ticket.remarks ? <Meta label={t('inbox.columns.remarks')}>{ticket.remarks}</Meta> : null}
            {ticket.tags.length > 0 ? (
              <Group gap={4}>
                {ticket.tags.map((tag) => (
                  <Badge key={tag} size="xs" variant="outline" color="gray" tt="none" radius="sm">
                    {tag}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Group>
        </Stack>
      </Paper>
    </ChatRoomLink>
  );
});
