import { inboxLimits, type TicketColumn, type TicketSummary } from '@app/contracts';
import { Box, Center, Loader, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type FocusEvent,
  memo,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
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
  /**
   * Shown under the rows when the last page asked for failed; while it shows, no page is
   * asked for on scrolling (its retry button asks again), so a failing page is not hammered.
   */
  nextPageError: ReactNode | null;
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
  context,
  checked,
  onToggle,
  onOpen,
  top,
}: {
  ticket: TicketSummary;
  columns: TicketColumn[];
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
      className={checked ? `${classes.tableRow} ${classes.tableRowSelected}` : classes.tableRow}
      // The whole row opens the chat for the mouse; the keyboard reaches it by the id link.
      onClick={() => onOpen(ticket)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(ticket);
      }}
      // The offset is the row's only inline style; the rest is in classes (see the CSS).
      style={{ transform: `translateY(${top}px)` }}
    >
      <td className={classes.checkCell}>
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
        <td key={column} className={classes.cell}>
          {columnDefinitions[column].render(ticket, context)}
        </td>
      ))}
    </tr>
  );
});

/** The column titles; the same on every scroll step, so rendered once per column set. */
const TicketTableHeading = memo(function TicketTableHeading({ columns }: { columns: TicketColumn[] }) {
  const { t } = useTranslation();
  return columns.map((column) => (
    <th key={column} style={{ padding: '0 12px', minWidth: 0, textAlign: 'left' }}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" truncate style={{ letterSpacing: '0.04em' }}>
        {t(`inbox.columns.${column}`)}
      </Text>
    </th>
  ));
});

/**
 * The ticket table: a sticky header and a virtualized body, so ten thousand loaded rows
 * cost no more to scroll than fifty. Rows have one fixed height (nothing to measure),
 * and the next page is asked for as the end of the loaded rows comes into view.
 */
export function TicketTable(props: TicketTableProps) {
  const { t } = useTranslation();
  const { rows, columns, selected, hasNextPage, isFetchingNextPage, fetchNextPage, nextPageError } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // A fling moves a whole screen per frame, so every row in reach is new each frame: a
    // small overscan keeps that work to about a screen's worth of rows.
    overscan: 4,
    scrollMargin: headerHeight,
    // Rows have a fixed height: nothing needs the synchronous render flushSync forces in
    // the scroll event; React renders the new rows with the frame instead.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  // Rows are keyed by their slot on screen, not by ticket: a row that scrolls out hands its
  // elements to the one scrolling in, so a fling updates a screen of rows' text and classes
  // instead of building and dropping a screen of elements each frame (garbage, and style
  // worked out afresh). The visible rows are consecutive indexes, so index modulo a count
  // at least as large as theirs never gives two of them one key; the count only grows.
  const slots = useRef(0);
  slots.current = Math.max(slots.current, items.length);
  // A focused row whose slot passes to another ticket lets go of the focus, as an unmounted
  // row would, so that Enter never opens a ticket other than the one the user reached.
  const focusedTicket = useRef<string | null>(null);
  const rememberFocus = (event: FocusEvent<HTMLElement>) => {
    focusedTicket.current = event.target.closest('tr')?.getAttribute('data-ticket-id') ?? null;
  };
  useLayoutEffect(() => {
    const active = document.activeElement;
    const row = active?.closest('tr[data-ticket-id]');
    if (!(active instanceof HTMLElement) || !row || !scrollRef.current?.contains(row)) return;
    if (row.getAttribute('data-ticket-id') !== focusedTicket.current) active.blur();
  });
  const lastIndex = items.at(-1)?.index ?? -1;
  const pageFailed = nextPageError !== null;
  useEffect(() => {
    if (lastIndex >= rows.length - 20 && hasNextPage && !isFetchingNextPage && !pageFailed) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, pageFailed, fetchNextPage]);

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
        style={
          {
            display: 'grid',
            minWidth,
            position: 'relative',
            borderCollapse: 'collapse',
            '--ticket-grid': grid,
          } as CSSProperties
        }
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
            <TicketTableHeading columns={columns} />
          </tr>
        </thead>
        {rows.length === 0 ? null : (
          <tbody
            style={{ display: 'grid', height: virtualizer.getTotalSize(), position: 'relative' }}
            onFocus={rememberFocus}
          >
            {items.map((item) => {
              const ticket = rows[item.index];
              return (
                <TicketRow
                  key={item.index % slots.current}
                  ticket={ticket}
                  columns={columns}
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
      ) : nextPageError ? (
        <div style={{ position: 'sticky', left: 0, width: '100%' }}>{nextPageError}</div>
      ) : null}
    </Box>
  );
}
