import type { TicketPriority, TicketSummary } from '@app/contracts';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconClockExclamation, IconFlagFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Mantine colour names per state, shared by the badges and the table's light chips. */
export const statusColours: Record<TicketSummary['status'] | 'EXPIRED', string> = {
  UNASSIGNED: 'orange',
  ASSIGNED: 'blue',
  CLOSED: 'gray',
  RESOLVED: 'teal',
  EXPIRED: 'red',
};

/** The ticket's state; an open chat past its 24-hour window shows as expired. */
export function StatusBadge({ ticket }: { ticket: Pick<TicketSummary, 'status' | 'expired'> }) {
  const { t } = useTranslation();
  const open = ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
  const shown = open && ticket.expired ? 'EXPIRED' : ticket.status;
  return (
    <Badge size="sm" variant="light" color={statusColours[shown]} tt="none" radius="sm" fw={600}>
      {t(`inbox.status.${shown}`)}
    </Badge>
  );
}

export const priorityColours: Record<TicketPriority, string> = { 1: 'red', 2: 'orange', 3: 'gray' };

/**
 * The priority as a flag and its name. `quiet` hides Normal, for lists where only the
 * exceptions deserve the eye.
 */
export function PriorityLabel({ priority, quiet = false }: { priority: TicketPriority; quiet?: boolean }) {
  const { t } = useTranslation();
  if (quiet && priority === 3) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <IconFlagFilled
        size={13}
        color={`var(--mantine-color-${priorityColours[priority]}-${priority === 3 ? 4 : 6})`}
        aria-hidden
      />
      <Text size="xs" fw={priority === 3 ? 400 : 600} c={priority === 3 ? 'dimmed' : undefined}>
        {t(`inbox.priority.${priority}`)}
      </Text>
    </Group>
  );
}

/** Shown from this long before a chat expires, so the agent still has time to answer. */
const expiryWarningMs = 2 * 60 * 60 * 1000;

/**
 * The 24-hour window warning on channels that have one: "expired", or "expires in …"
 * in its last two hours. Nothing otherwise.
 */
export function ExpiryWarning({
  ticket,
  now,
}: {
  ticket: Pick<TicketSummary, 'status' | 'expired' | 'expiresAt'>;
  now: Date;
}) {
  const { t } = useTranslation();
  const open = ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
  if (!open) return null;
  if (ticket.expired) {
    return (
      <Badge size="xs" color="red" variant="light" tt="none" radius="sm">
        {t('inbox.expiry.expired')}
      </Badge>
    );
  }
  if (!ticket.expiresAt) return null;
  const leftMs = new Date(ticket.expiresAt).getTime() - now.getTime();
  if (leftMs > expiryWarningMs || leftMs <= 0) return null;
  const minutes = Math.max(1, Math.round(leftMs / 60_000));
  const label =
    minutes >= 60
      ? t('inbox.expiry.inHours', { count: Math.round(minutes / 60) })
      : t('inbox.expiry.inMinutes', { count: minutes });
  return (
    <Tooltip label={t('inbox.expiry.hint')} withArrow>
      <Badge
        size="xs"
        color="orange"
        variant="light"
        tt="none"
        radius="sm"
        leftSection={<IconClockExclamation size={11} />}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}

/** The unread count bubble; nothing when all is read. */
export function UnreadCount({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <Badge
      size="sm"
      circle={count < 10}
      color="brand"
      variant="filled"
      aria-label={t('inbox.unread', { count })}
    >
      {count > 99 ? '99+' : count}
    </Badge>
  );
}
