import { z } from 'zod';
import { channelCodes } from './channels';
import { inboxLimits, inboxTabs, ticketStatusFilters, ticketSummary } from './inbox';

/**
 * The inbox's read side: the ticket list and its filters, tab counts and views, search
 * and the chat-history download.
 */

/** Columns the ticket list can show (core-inbox §3). */
export const ticketColumns = [
  'id',
  'groupId',
  'createdAt',
  'customer',
  'assigneeId',
  'closedAt',
  'remarks',
  'subject',
  'mediaPlatform',
  'closedBy',
  'priority',
  'tags',
  'submitterId',
  'status',
] as const;
export type TicketColumn = (typeof ticketColumns)[number];

const csv = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
    z.array(item),
  );

/**
 * The default ticket filter fields (core-inbox §3), as query parameters. Lists are
 * comma-separated; date ranges are ISO instants.
 */
export const ticketFilterQuery = z.object({
  tab: z.enum(inboxTabs).optional(),
  customerInfo: z.string().trim().max(100).optional(),
  tags: csv(z.string().max(inboxLimits.tagMax)).optional(),
  createdFrom: z.string().datetime({ offset: true }).optional(),
  createdTo: z.string().datetime({ offset: true }).optional(),
  closedFrom: z.string().datetime({ offset: true }).optional(),
  closedTo: z.string().datetime({ offset: true }).optional(),
  remarksOrSubject: z.string().trim().max(200).optional(),
  mediaPlatform: csv(z.enum(channelCodes)).optional(),
  csId: csv(z.string().uuid()).optional(),
  closedBy: csv(z.string().uuid()).optional(),
  createdBy: csv(z.string().uuid()).optional(),
  csGroup: csv(z.string().uuid()).optional(),
  status: csv(z.enum(ticketStatusFilters)).optional(),
  priority: csv(z.coerce.number().int().min(1).max(3)).optional(),
  categoryId: z.string().uuid().optional(),
  keyword: z.string().trim().max(200).optional(),
  /** Newest created first (the ticket table) or latest activity first (the inbox). */
  sort: z.enum(['createdAt', 'lastMessageAt']).default('createdAt'),
  /** Opaque keyset cursor from the previous page. */
  cursor: z.string().max(200).optional(),
  pageSize: z.coerce.number().int().min(1).max(inboxLimits.pageSizeMax).default(inboxLimits.pageSizeDefault),
});
export type TicketFilterQuery = z.infer<typeof ticketFilterQuery>;

/** Open-ticket counts per tab, kept by the server as tickets change. */
export const tabCounts = z.object({
  mine: z.number().int(),
  unassigned: z.number().int(),
  all: z.number().int(),
});
export type TabCounts = z.infer<typeof tabCounts>;

export const ticketListResponse = z.object({
  content: z.array(ticketSummary),
  nextCursor: z.string().nullable(),
  counts: tabCounts,
});
export type TicketListResponse = z.infer<typeof ticketListResponse>;

/** A search hit: the ticket, and the best matching message when the match was in one. */
export const searchHit = z.object({
  ticket: ticketSummary,
  message: z.object({ id: z.number().int(), snippet: z.string(), createdAt: z.string() }).nullable(),
});
export const searchResponse = z.object({ content: z.array(searchHit), nextCursor: z.string().nullable() });

/** The user's saved column set of the ticket list. */
export const columnSetBody = z.object({ columns: z.array(z.enum(ticketColumns)).min(1) });

/** The inbox conversation list (GET /api/csp/chatRoom): the ticket filters, latest activity first. */
export const inboxListQuery = ticketFilterQuery.extend({
  sort: z.enum(['createdAt', 'lastMessageAt']).default('lastMessageAt'),
});

/** One default view of the ticket list (a tab) with its open-ticket count, kept by the server. */
export const ticketView = z.object({ id: z.enum(inboxTabs), count: z.number().int() });
export type TicketView = z.infer<typeof ticketView>;
export const ticketViewListResponse = z.object({ content: z.array(ticketView) });
export type TicketViewListResponse = z.infer<typeof ticketViewListResponse>;

/**
 * The chat-history download: the ticket filters over a created range of at most
 * `inboxLimits.downloadMaxDays` (both ends required), and the language of the header row.
 */
export const chatHistoryDownloadQuery = ticketFilterQuery
  .omit({ cursor: true, pageSize: true })
  .extend({ lang: z.enum(['id', 'en']).default('id') });
export type ChatHistoryDownloadQuery = z.infer<typeof chatHistoryDownloadQuery>;
