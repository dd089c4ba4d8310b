import {
  type ChatHistoryDownloadQuery,
  channels,
  inboxErrors,
  inboxLimits,
  type TicketSummary,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { badRequest } from '../../platform/http/http-errors';
import type { InboxScope } from './inbox.policy';
import { presentTicket } from './ticket.presenter';
import { findTicketExportDetails, type TicketExportDetails } from './ticket-export.repository';
import { catchUpSearchWords } from './ticket-keyword';
import { listDefaults, type TicketQueryService } from './ticket-query.service';

type FileLanguage = ChatHistoryDownloadQuery['lang'];

/** The file's own words: a spreadsheet is read outside the app, so it carries its language. */
const fileLabels = {
  id: {
    header: [
      'ID Tiket',
      'Dibuat',
      'Pelanggan',
      'Telepon',
      'Kanal',
      'Status',
      'Prioritas',
      'Tag',
      'Kategori',
      'CS yang ditugaskan',
      'Ditutup oleh',
      'Ditutup pada',
      'Catatan',
      'Subjek',
      'Jumlah pesan',
      'Pesan pertama pelanggan',
    ],
    status: {
      UNASSIGNED: 'Belum ditugaskan',
      ASSIGNED: 'Ditugaskan',
      CLOSED: 'Ditutup',
      RESOLVED: 'Selesai',
      EXPIRED: 'Kedaluwarsa',
    },
    priority: { 1: 'Tinggi', 2: 'Sedang', 3: 'Normal' },
  },
  en: {
    header: [
      'Ticket ID',
      'Created',
      'Customer',
      'Phone',
      'Channel',
      'Status',
      'Priority',
      'Tags',
      'Category',
      'Assigned CS',
      'Closed by',
      'Closed at',
      'Remarks',
      'Subject',
      'Message count',
      'First customer message',
    ],
    status: {
      UNASSIGNED: 'Unassigned',
      ASSIGNED: 'Assigned',
      CLOSED: 'Closed',
      RESOLVED: 'Resolved',
      EXPIRED: 'Expired',
    },
    priority: { 1: 'High', 2: 'Medium', 3: 'Normal' },
  },
} as const;

const dayMs = 24 * 60 * 60 * 1000;
/** Tickets read per transaction while the file streams. */
const exportPageSize = 500;

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (= + - @, or a leading tab or
 * carriage return) gets a leading apostrophe; quotes, commas and line breaks are quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: Array<string | number | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;

/** Date and time as a spreadsheet reads them (YYYY-MM-DD HH:mm:ss), in the client's time zone. */
function localTime(timeZone: string): (iso: string | null) => string {
  const format = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso) => (iso ? format.format(new Date(iso)) : '');
}

/** The client's time zone, or the product's default when the stored name is not one Intl knows. */
function knownTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'Asia/Jakarta';
  }
}

export interface ChatHistoryDownload {
  fileName: string;
  /** The file, a byte-order mark and header row first, then one line per ticket. */
  lines: AsyncIterable<string>;
}

/**
 * The chat-history download (commerce: up to 31 days): the search's filters over a
 * created range, streamed page by page so a month of tickets never sits in memory.
 */
export class TicketExportService {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketQueryService,
  ) {}

  /** Checks the range at once (a 400 before any byte is sent) and returns the file to stream. */
  download(scope: InboxScope, query: ChatHistoryDownloadQuery, clientTimeZone: string): ChatHistoryDownload {
    const timeZone = knownTimeZone(clientTimeZone);
    const { createdFrom, createdTo } = query;
    if (!createdFrom || !createdTo) throw badRequest(inboxErrors.downloadRange);
    const span = Date.parse(createdTo) - Date.parse(createdFrom);
    if (span < 0 || span > inboxLimits.downloadMaxDays * dayMs) throw badRequest(inboxErrors.downloadRange);
    const day = (iso: string) => localTime(timeZone)(iso).slice(0, 10);
    return {
      fileName: `chat-history_${day(createdFrom)}_${day(createdTo)}.csv`,
      lines: this.lines(scope, query, localTime(timeZone)),
    };
  }

  private async *lines(
    scope: InboxScope,
    query: ChatHistoryDownloadQuery,
    time: (iso: string | null) => string,
  ): AsyncIterable<string> {
    const { lang, ...filter } = query;
    const labels = fileLabels[lang];
    yield `\uFEFF${csvLine([...labels.header])}`;
    let cursor: string | undefined;
    if (filter.keyword) await catchUpSearchWords(this.db, scope.clientId);
    do {
      const { page, details } = await withTenant(this.db, scope.clientId, async (tx) => {
        const page = await this.tickets.page(
          tx,
          scope,
          { ...filter, sort: 'createdAt', cursor, pageSize: exportPageSize },
          listDefaults.table,
        );
        const ids = page.rows.map((row) => row.ticket.id);
        return { page, details: await findTicketExportDetails(tx, scope.clientId, ids) };
      });
      const detailsOf = new Map(details.map((row) => [row.ticketId, row]));
      yield page.rows
        .map((row) => this.line(presentTicket(row.ticket), detailsOf.get(row.ticket.id), labels, time))
        .join('');
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  private line(
    ticket: TicketSummary,
    details: TicketExportDetails | undefined,
    labels: (typeof fileLabels)[FileLanguage],
    time: (iso: string | null) => string,
  ): string {
    return csvLine([
      ticket.id,
      time(ticket.createdAt),
      ticket.customer.name,
      ticket.customer.phone,
      channels[ticket.mediaPlatform]?.name ?? ticket.mediaPlatform,
      labels.status[ticket.expired ? 'EXPIRED' : ticket.status],
      labels.priority[ticket.priority],
      ticket.tags.join(', '),
      details?.categoryName,
      details?.assigneeName,
      details?.closedByName,
      time(ticket.closedAt),
      ticket.remarks,
      ticket.subject,
      details?.messageCount ?? 0,
      details?.firstCustomerMessage,
    ]);
  }
}
