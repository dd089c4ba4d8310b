import { type TicketDetailResponse, type TicketPriority, ticketPriorities } from '@app/contracts';
import { ActionIcon, Avatar, Button, Group, Menu, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconArrowLeft,
  IconCheck,
  IconChevronDown,
  IconCircleCheck,
  IconCircleX,
  IconUserShare,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelBadge } from '../../../shared/channel-badge';
import { initialsOf } from '../../../shared/display-format';
import { PriorityLabel, StatusBadge } from '../shared/ticket-badges';
import classes from './chat-room.module.css';
import { agentsQueryOptions, groupsQueryOptions } from './chat-room.queries';
import type { ClosingStatus } from './close-ticket-modal';

const priorityOrder: TicketPriority[] = [
  ticketPriorities.HIGH,
  ticketPriorities.MEDIUM,
  ticketPriorities.NORMAL,
];

/**
 * The chat's header: who the customer is and where they write from, the chat's state,
 * priority and assignee, and the actions on the chat (for those who may act on it).
 */
// Memoized: the chat room re-renders on every page of messages, which changes nothing here.
export const ChatRoomHeader = memo(function ChatRoomHeader(props: {
  detail: TicketDetailResponse;
  canAct: boolean;
  onBack: () => void;
  onPriority: (priority: TicketPriority) => void;
  onTransfer: () => void;
  onCloseTicket: (status: ClosingStatus) => void;
  onlyResolve: boolean;
}) {
  const { t } = useTranslation();
  const { ticket, contact } = props.detail;
  const open = ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
  const agents = useQuery(agentsQueryOptions());
  const groups = useQuery(groupsQueryOptions());
  const assignee = agents.data?.find((agent) => agent.id === ticket.assigneeId);
  const group = groups.data?.find((candidate) => candidate.id === ticket.groupId);
  const assigneeLabel = ticket.assigneeId
    ? (assignee?.name ?? t('chatRoom.assignee.someone'))
    : t('chatRoom.assignee.none');
  const actionable = props.canAct && open;

  return (
    <div className={classes.header}>
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={t('chatRoom.backToList')} withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={props.onBack}
              aria-label={t('chatRoom.backToList')}
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Avatar color="brand" radius="xl" size={38}>
            {initialsOf(contact.name, contact.phone ?? contact.email ?? '?')}
          </Avatar>
          <Stack gap={3} style={{ minWidth: 0 }}>
            <Group gap={8} wrap="nowrap">
              <Text fw={650} size="md" truncate data-testid="chat-customer-name">
                {contact.name}
              </Text>
              <Text size="xs" c="dimmed">
                #{ticket.id}
              </Text>
            </Group>
            <Group gap={6} wrap="nowrap">
              <ChannelBadge code={ticket.mediaPlatform} />
              <StatusBadge ticket={ticket} />
              {actionable ? (
                <Menu position="bottom-start" withArrow shadow="md">
                  <Menu.Target>
                    <UnstyledButton aria-label={t('chatRoom.priority.label')} data-testid="priority-menu">
                      <Group gap={2} wrap="nowrap">
                        <PriorityLabel priority={ticket.priority} />
                        <IconChevronDown size={12} color="var(--mantine-color-dimmed)" />
                      </Group>
                    </UnstyledButton>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Label>{t('chatRoom.priority.label')}</Menu.Label>
                    {priorityOrder.map((priority) => (
                      <Menu.Item
                        key={priority}
                        onClick={() => priority !== ticket.priority && props.onPriority(priority)}
                        rightSection={priority === ticket.priority ? <IconCheck size={14} /> : null}
                      >
                        {t(`chatRoom.priority.${priority}`)}
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
              ) : (
                <PriorityLabel priority={ticket.priority} />
              )}
            </Group>
          </Stack>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {actionable ? (
            <Tooltip
              label={
                group ? t('chatRoom.assignee.group', { name: group.name }) : t('chatRoom.assignee.label')
              }
              withArrow
            >
              <Button
                variant="default"
                size="xs"
                leftSection={
                  <Avatar size={20} radius="xl" color={ticket.assigneeId ? 'blue' : 'gray'}>
                    {ticket.assigneeId ? initialsOf(assignee?.name, '?') : null}
                  </Avatar>
                }
                rightSection={<IconUserShare size={14} />}
                onClick={props.onTransfer}
                data-testid="assignee-button"
                maw={220}
              >
                <Text size="xs" truncate inherit>
                  {assigneeLabel}
                </Text>
              </Button>
            </Tooltip>
          ) : (
            <Group gap={6} wrap="nowrap" data-testid="assignee-label">
              <Avatar size={22} radius="xl" color={ticket.assigneeId ? 'blue' : 'gray'}>
                {ticket.assigneeId ? initialsOf(assignee?.name, '?') : null}
              </Avatar>
              <Stack gap={0}>
                <Text size="xs" c="dimmed" lh={1.2}>
                  {t('chatRoom.assignee.label')}
                </Text>
                <Text size="xs" fw={600} lh={1.3} truncate maw={180}>
                  {assigneeLabel}
                </Text>
              </Stack>
            </Group>
          )}
          {actionable ? (
            <Group gap={0} wrap="nowrap">
              <Button
                size="xs"
                leftSection={<IconCircleCheck size={15} />}
                onClick={() => props.onCloseTicket('RESOLVED')}
                style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
                data-testid="resolve-button"
              >
                {t('chatRoom.actions.resolve')}
              </Button>
              <Menu position="bottom-end" withArrow shadow="md">
                <Menu.Target>
                  <Button
                    size="xs"
                    px={6}
                    aria-label={t('chatRoom.actions.more')}
                    style={{
                      borderTopLeftRadius: 0,
                      borderBottomLeftRadius: 0,
                      borderLeft: '1px solid rgba(255,255,255,0.35)',
                    }}
                  >
                    <IconChevronDown size={14} />
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconCircleX size={14} />}
                    disabled={props.onlyResolve}
                    onClick={() => props.onCloseTicket('CLOSED')}
                    data-testid="close-button"
                  >
                    {t('chatRoom.actions.close')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          ) : null}
        </Group>
      </Group>
    </div>
  );
});
