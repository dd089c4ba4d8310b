import type { TicketColumn } from '@app/contracts';
import { Button, Checkbox, Divider, Group, Popover, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataOrThrow, errorObjectOf } from '../../../shared/api-client';
import { showSnackbar } from '../../../shared/snackbar-store';
import { columnsQueryOptions, inboxKeys, saveColumns } from '../inbox.queries';
import { inboxErrorText } from '../shared/inbox-errors';
import { columnOrder, defaultColumns, orderedColumns } from './ticket-columns';

/**
 * The user's column set of the ticket table: saved on the server per user, so it follows
 * them to another browser. Until the first answer (or when there is none) the default
 * set shows.
 */
export function useTicketColumns(): TicketColumn[] {
  const saved = useQuery(columnsQueryOptions());
  return orderedColumns(saved.data ?? defaultColumns);
}

/** A popover of checkboxes; each change is saved at once and shown before the answer. */
export function ColumnChooser({ columns }: { columns: TicketColumn[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: async (next: TicketColumn[]) => dataOrThrow(await saveColumns(next)),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: inboxKeys.columns() });
      const previous = queryClient.getQueryData<TicketColumn[]>(inboxKeys.columns());
      queryClient.setQueryData(inboxKeys.columns(), next);
      return { previous };
    },
    onError: (error, _next, context) => {
      queryClient.setQueryData(inboxKeys.columns(), context?.previous);
      showSnackbar('bottom', inboxErrorText(t, errorObjectOf(error)), 'error');
    },
    onSuccess: (saved) => queryClient.setQueryData(inboxKeys.columns(), saved.columns),
  });

  const change = (values: string[]) => {
    if (values.length === 0) return;
    save.mutate(orderedColumns(values as TicketColumn[]));
  };

  return (
    <Popover width={260} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button variant="default" size="sm" leftSection={<IconColumns size={16} />}>
          {t('inbox.table.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            {t('inbox.table.columnsTitle')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('inbox.table.columnsHint')}
          </Text>
          <Divider />
          <Checkbox.Group value={columns} onChange={change}>
            <Stack gap={8}>
              {columnOrder.map((column) => (
                <Checkbox
                  key={column}
                  value={column}
                  size="xs"
                  label={t(`inbox.columns.${column}`)}
                  disabled={columns.length === 1 && columns.includes(column)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Divider />
          <Group justify="flex-end">
            <Button size="compact-xs" variant="subtle" onClick={() => change(defaultColumns)}>
              {t('inbox.table.columnsReset')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
