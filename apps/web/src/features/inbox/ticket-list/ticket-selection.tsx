import { inboxLimits, type TicketSummary } from '@app/contracts';
import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../shared/snackbar-store';

/**
 * Selection of rows for a later bulk update, held to the spec's limit: past it nothing
 * more is taken and the user is warned (the limit's value itself is not shown).
 */
export function useTicketSelection(rows: TicketSummary[]) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const warn = useCallback(() => showSnackbar('bottom', t('inbox.errors.selectionLimit'), 'warning'), [t]);
  const toggle = useCallback(
    (ticketId: number) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(ticketId)) next.delete(ticketId);
        else if (next.size >= inboxLimits.selectionMax) {
          warn();
          return current;
        } else next.add(ticketId);
        return next;
      }),
    [warn],
  );
  const toggleAll = useCallback(() => {
    setSelected((current) => {
      if (current.size > 0) return new Set();
      if (rows.length > inboxLimits.selectionMax) warn();
      return new Set(rows.slice(0, inboxLimits.selectionMax).map((row) => row.id));
    });
  }, [rows, warn]);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, toggleAll, clear };
}

/**
 * The strip over the table while rows are selected: how many, the limit warning, and
 * the bulk action, which arrives with the bulk-update dialog (disabled until then).
 */
export function SelectionBar({ count, onClear }: { count: number; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Group
      px="md"
      py={6}
      gap="sm"
      data-testid="selection-bar"
      style={{ background: 'var(--mantine-color-brand-0)', borderTop: '1px solid var(--app-border-subtle)' }}
    >
      <Text size="sm" fw={600}>
        {t('inbox.ticketView.selected', { count })}
      </Text>
      {count >= inboxLimits.selectionMax ? (
        <Badge color="orange" variant="light" tt="none" leftSection={<IconAlertCircle size={12} />}>
          {t('inbox.errors.selectionLimit')}
        </Badge>
      ) : null}
      <Button size="compact-sm" variant="subtle" color="gray" onClick={onClear}>
        {t('inbox.ticketView.clearSelection')}
      </Button>
      <Tooltip label={t('inbox.ticketView.bulkSoon')} withArrow>
        <span style={{ marginLeft: 'auto' }}>
          <Button size="compact-sm" disabled>
            {t('inbox.ticketView.bulkUpdate')}
          </Button>
        </span>
      </Tooltip>
    </Group>
  );
}
