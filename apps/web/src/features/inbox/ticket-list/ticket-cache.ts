import type { TicketListResponse, TicketSummary } from '@app/contracts';
import type { InfiniteData } from '@tanstack/react-query';

export type TicketPages = InfiniteData<TicketListResponse, string | null>;
export type TicketSort = 'createdAt' | 'lastMessageAt';

function sortKey(ticket: TicketSummary, sort: TicketSort): number {
  return new Date(ticket[sort]).getTime();
}

/** True when `a` comes before `b` in a list sorted newest first, ties by the larger id. */
function comesBefore(a: TicketSummary, b: TicketSummary, sort: TicketSort): boolean {
  const difference = sortKey(a, sort) - sortKey(b, sort);
  return difference > 0 || (difference === 0 && a.id > b.id);
}

/**
 * Applies one ticket's new state to the loaded pages of a list, the way the server
 * would have listed it: `matches` true puts it at its sorted place (moving it up when
 * its activity is newer), false takes it out, null (the client cannot judge the
 * filters) only updates a row already there. A row whose place lies past the loaded
 * pages is left for the next page to bring. Pages stay the same objects when untouched,
 * so a list of 10,000 rows is not rebuilt for one event.
 */
export function applyTicketToPages(
  data: TicketPages,
  ticket: TicketSummary,
  matches: boolean | null,
  sort: TicketSort,
): TicketPages {
  const pageIndex = data.pages.findIndex((page) => page.content.some((row) => row.id === ticket.id));
  const present = pageIndex >= 0;
  const keep = matches === true || (matches === null && present);

  if (present && keep && staysInPlace(data, pageIndex, ticket, sort)) {
    const pages = data.pages.map((page, index) =>
      index === pageIndex
        ? { ...page, content: page.content.map((row) => (row.id === ticket.id ? ticket : row)) }
        : page,
    );
    return { ...data, pages };
  }

  let pages = present
    ? data.pages.map((page, index) =>
        index === pageIndex ? { ...page, content: page.content.filter((row) => row.id !== ticket.id) } : page,
      )
    : data.pages;
  if (!keep) return present ? { ...data, pages } : data;

  const lastPage = pages.length - 1;
  let placed = false;
  pages = pages.map((page, index) => {
    if (placed) return page;
    const at = page.content.findIndex((row) => comesBefore(ticket, row, sort));
    if (at >= 0) {
      placed = true;
      return { ...page, content: [...page.content.slice(0, at), ticket, ...page.content.slice(at)] };
    }
    if (index === lastPage && page.nextCursor === null) {
      placed = true;
      return { ...page, content: [...page.content, ticket] };
    }
    return page;
  });
  if (!placed && !present) return data;
  return { ...data, pages };
}

/** Whether the new state still sorts between the row's neighbours, so it can stay where it is. */
function staysInPlace(
  data: TicketPages,
  pageIndex: number,
  ticket: TicketSummary,
  sort: TicketSort,
): boolean {
  const rows = data.pages.flatMap((page) => page.content);
  const at = rows.findIndex((row) => row.id === ticket.id);
  const before = rows[at - 1];
  const after = rows[at + 1];
  return (
    pageIndex >= 0 &&
    (!before || comesBefore(before, ticket, sort)) &&
    (!after || comesBefore(ticket, after, sort))
  );
}

/** The rows of all loaded pages in order, each ticket once (a moved row may come back on a later page). */
export function rowsOf(
  data: { pages: ReadonlyArray<{ content: TicketSummary[] }> } | undefined,
): TicketSummary[] {
  if (!data) return [];
  const seen = new Set<number>();
  const rows: TicketSummary[] = [];
  for (const page of data.pages) {
    for (const row of page.content) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}
