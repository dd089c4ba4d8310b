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
/**
 * Rows are placed in two parts: the body's top padding, a multiple of this many rows, and
 * each row's offset from it. Chromium's style work grows with the new values inline offsets
 * take: offsets counted from the top of ten thousand rows took a new value for every row at
 * every step of a scroll, and a fling's style work climbed from about 3 to 9–17 ms a frame,
 * falling back only at major collections (bench/history.md, forty-third stop). Offsets from the
 * padding repeat; the padding changes once every this many rows.
 */
const rowsPerBase = 128;

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

/**
 * A row in passing, while the list moves half a screen or more between scroll steps: its id
 * and its customer as plain text, the other cells empty. At that speed a row stays on screen
 * for a frame or two and cannot be read, and most rows on screen are new at every step; their
 * whole cells restyled cost a frame most of its time (about 350 elements a frame), where the
 * text of two cells costs next to nothing.
 */
function passingCell(column: TicketColumn, ticket: TicketSummary): ReactNode {
  if (column === 'id') return <span className={classes.passingId}>#{ticket.id}</span>;
  if (column === 'customer') return <span className={classes.passingText}>{ticket.customer.name}</span>;
  return null;
}

/**
 * The rows in the order of their slots, while they show in passing. In reading order, the
 * rows that wrap around from one end of the screen to the other move in the page at every
 * step, and Chromium builds a moved row's boxes and styles again from nothing; in slot order
 * no row moves, and a step only rewrites the rows' text, ids and offsets. The tab order
 * follows the page, so it leaves reading order only while the list flies by; once the list
 * stops, the rows are put back in reading order.
 */
function inSlotOrder<T extends { index: number }>(items: T[], slots: number): T[] {
  return [...items].sort((a, b) => (a.index % slots) - (b.index % slots));
}

const TicketRow = memo(function TicketRow({
  ticket,
  columns,
  context,
  checked,
  onToggle,
  onOpen,
  top,
  rowIndex,
  passing,
}: {
  ticket: TicketSummary;
  columns: TicketColumn[];
  context: CellContext;
  checked: boolean;
  onToggle: (ticketId: number) => void;
  onOpen: (ticket: TicketSummary) => void;
  top: number;
  /** The row's place in the whole table for assistive technology: the header is row 1. */
  rowIndex: number;
  /** Shown in passing (see `passingCell`): the list moves half a screen or more a step. */
  passing: boolean;
}) {
  return (
    <tr
      aria-selected={checked}
      aria-rowindex={rowIndex}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      className={checked ? `${classes.tableRow} ${classes.tableRowSelected}` : classes.tableRow}
      // The whole row opens the chat for the mouse; the keyboard reaches it by the id link.
      onClick={() => onOpen(ticket)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(ticket);
      }}
      // The offset is the row's only inline style; the rest is in classes (see the CSS).
      // It is counted from the body's padding, so it takes one of a few values (see rowsPerBase).
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
          {passing ? passingCell(column, ticket) : columnDefinitions[column].render(ticket, context)}
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
  // Whether the list moved half a screen or more since the last scroll step: a fling, or
  // the scroll bar dragged. The rows then show in passing until the list slows or stops (the
  // virtualizer tells when scrolling ends, 150 ms after the last step, and renders again).
  const jump = useRef({ start: 0, passing: false });
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
    onChange: (instance) => {
      const range = instance.range;
      if (!range) return;
      const moved = Math.abs(range.startIndex - jump.current.start);
      jump.current.passing = instance.isScrolling && moved * 2 >= range.endIndex - range.startIndex + 1;
      jump.current.start = range.startIndex;
    },
  });
  const passing = jump.current.passing;
  const items = virtualizer.getVirtualItems();
  // Rows are keyed by their slot on screen, not by ticket: a row that scrolls out hands its
  // elements to the one scrolling in, so a fling updates a screen of rows' text and classes
  // instead of building and dropping a screen of elements each frame (garbage, and style
  // worked out afresh). The visible rows are consecutive indexes, so index modulo a count
  // at least as large as theirs never gives two of them one key; the count only grows.
  // It is one more than theirs, so that a step of one row brings a key no row on screen
  // holds, and React builds that one row. With every key on screen, the row arriving at the
  // top of a scroll up takes the bottom row's key, and React moves every other row after it
  // (about 690 elements restyled a frame against 39, forty-third stop).
  const slots = useRef(0);
  slots.current = Math.max(slots.current, items.length + 1);
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
  const base = Math.floor((items[0]?.index ?? 0) / rowsPerBase) * rowsPerBase;
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
        // Every loaded row and the header, though only those in reach are in the page.
        aria-rowcount={rows.length + 1}
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
            aria-rowindex={1}
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
            // A block, not a grid: an absolute row without a top starts below a block's
            // padding, where in a grid it would start at the padding's edge.
            style={{
              display: 'block',
              boxSizing: 'border-box',
              height: virtualizer.getTotalSize(),
              paddingTop: base * rowHeight,
              position: 'relative',
            }}
            onFocus={rememberFocus}
          >
            {(passing ? inSlotOrder(items, slots.current) : items).map((item) => {
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
                  top={item.start - headerHeight - base * rowHeight}
                  rowIndex={item.index + 2}
                  passing={passing}
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
