import { inboxLimits, type TicketColumn, type TicketSummary } from '@app/contracts';
import { Box, Center, Loader, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type CellContext, columnDefinitions } from './ticket-columns';
import classes from './ticket-lists.module.css';

const rowHeight = 52;
const headerHeight = 40;
const checkboxWidth = 48;

export interface TicketTableProps {
  rows: TicketSummary[];
  columns: TicketColumn[];
  context: CellContext;
  selected: ReadonlySet<number>;
  onToggle: (ticketId: number) => void;
  onToggleAll: () => void;
  onOpen: (ticket: TicketSummary) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  /** Shown in place of the rows when there are none. */
  empty: ReactNode;
}

function gridOf(columns: TicketColumn[]): string {
  return [
    `${checkboxWidth}px`,
    ...columns.map((column) => `minmax(${columnDefinitions[column].width}px, 1fr)`),
  ].join(' ');
}

const TicketRow = memo(function TicketRow({
  ticket,
  columns,
  grid,
  context,
  checked,
  onToggle,
  onOpen,
  top,
}: {
  ticket: TicketSummary;
  columns: TicketColumn[];
  grid: string;
  context: CellContext;
  checked: boolean;
  onToggle: (ticketId: number) => void;
  onOpen: (ticket: TicketSummary) => void;
  top: number;
}) {
  return (
    <tr
      aria-selected={checked}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      className={`${classes.tableRow} ${checked ? classes.tableRowSelected : ''}`}
      // The whole row opens the chat for the mouse; the keyboard reaches it by the id link.
      onClick={() => onOpen(ticket)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(ticket);
      }}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        width: '100%',
        height: rowHeight,
        transform: `translateY(${top}px)`,
        display: 'grid',
        gridTemplateColumns: grid,
        alignItems: 'center',
        borderBottom: '1px solid var(--app-border-subtle)',
      }}
    >
      <td style={{ paddingLeft: 16 }}>
        <input
          type="checkbox"
          className={classes.checkbox}
          checked={checked}
          onClick={(event) => event.stopPropagation()}
          onChange={() => onToggle(ticket.id)}
          aria-label={context.selectRowLabel(ticket.id)}
        />
      </td>
      {columns.map((column) => (
        <td key={column} style={{ padding: '0 12px', minWidth: 0, overflow: 'hidden', display: 'flex' }}>
          {columnDefinitions[column].render(ticket, context)}
        </td>
      ))}
    </tr>
  );
});

/**
 * The ticket table: a sticky header and a virtualized body, so ten thousand loaded rows
 * cost no more to scroll than fifty. Rows have one fixed height (nothing to measure),
 * and the next page is asked for as the end of the loaded rows comes into view.
 */
export function TicketTable(props: TicketTableProps) {
  const { t } = useTranslation();
  const { rows, columns, selected, hasNextPage, isFetchingNextPage, fetchNextPage } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: headerHeight,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= rows.length - 20 && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const grid = gridOf(columns);
  const minWidth = checkboxWidth + columns.reduce((sum, column) => sum + columnDefinitions[column].width, 0);
  const selectedLoaded = useMemo(
    () => rows.reduce((count, row) => count + (selected.has(row.id) ? 1 : 0), 0),
    [rows, selected],
  );
  // "All" means every loaded row, or as many as the selection may hold.
  const allChosen =
    selectedLoaded > 0 && (selectedLoaded === rows.length || selected.size >= inboxLimits.selectionMax);

  return (
    <Box
      ref={scrollRef}
      data-testid="ticket-table"
      style={{ height: '100%', overflow: 'auto', position: 'relative', contain: 'strict' }}
    >
      <table
        aria-rowcount={rows.length}
        style={{ display: 'grid', minWidth, position: 'relative', borderCollapse: 'collapse' }}
      >
        <thead style={{ display: 'grid', position: 'sticky', top: 0, zIndex: 2 }}>
          <tr
            style={{
              height: headerHeight,
              display: 'grid',
              gridTemplateColumns: grid,
              alignItems: 'center',
              background: 'var(--mantine-color-gray-0)',
              borderBottom: '1px solid var(--app-border-subtle)',
            }}
          >
            <th style={{ paddingLeft: 16, textAlign: 'left' }}>
              <input
                type="checkbox"
                ref={(input) => {
                  if (input) input.indeterminate = selected.size > 0 && !allChosen;
                }}
                className={classes.checkbox}
                checked={allChosen}
                onChange={props.onToggleAll}
                disabled={rows.length === 0}
                aria-label={t('inbox.table.selectAll')}
              />
            </th>
            {columns.map((column) => (
              <th key={column} style={{ padding: '0 12px', minWidth: 0, textAlign: 'left' }}>
                <Text
                  size="xs"
                  fw={600}
                  c="dimmed"
                  tt="uppercase"
                  truncate
                  style={{ letterSpacing: '0.04em' }}
                >
                  {t(`inbox.columns.${column}`)}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        {rows.length === 0 ? null : (
          <tbody style={{ display: 'grid', height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const ticket = rows[item.index];
              return (
                <TicketRow
                  key={ticket.id}
                  ticket={ticket}
                  columns={columns}
                  grid={grid}
                  context={props.context}
                  checked={selected.has(ticket.id)}
                  onToggle={props.onToggle}
                  onOpen={props.onOpen}
                  top={item.start - headerHeight}
                />
              );
            })}
          </tbody>
        )}
      </table>
      {rows.length === 0 ? (
        // Outside the table, which may be far wider than the screen: kept in view.
        <div style={{ position: 'sticky', left: 0, width: '100%' }}>{props.empty}</div>
      ) : null}
      {isFetchingNextPage ? (
        <Center py="sm">
          <Loader size="xs" />
        </Center>
      ) : null}
    </Box>
  );
}
