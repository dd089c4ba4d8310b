import type { AttachmentView } from '@app/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { messages, tickets } from '../../db/schema';
import { type MessageRow, presentAttachment } from './ticket.presenter';

/**
 * The busiest pages (a room's messages, the ticket list and the inbox) written as JSON by
 * PostgreSQL, in exactly the shapes `presentMessage` and `presentTicket` build: the server
 * then reads one text column a row and joins them, instead of parsing every column of every
 * row, mapping it, presenting it and writing it out again. On a 50-row page that work was
 * most of the server's time per request (issue 13, "Inbox at scale"). The presenters stay
 * the definition: json-views.test.ts holds both to the same output, row for row.
 *
 * Each row is a `row(...)` of a composite type whose field names are the JSON keys
 * (migration 0022), written by `row_to_json`: `json_build_object` looks up the type and
 * output of each of its arguments again on every row, and was half of PostgreSQL's time on
 * a room page. The fields go in the types' order. A ticket's JSON is written that way once
 * per change and stored (migration 0027), since the lists read far more often than tickets
 * change; a message's is written when read: there are ten messages to a ticket, and a room
 * shows the quoted message's text beside each reply, which only a read can join.
 */

/** A timestamptz as `Date.prototype.toISOString` writes it (UTC, milliseconds, `Z`); null stays null. */
const isoOf = (value: SQL) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A message row of `messages` as `MessageView` JSON text, without its attachments (`[]`):
 * their links are signed by the server (`withAttachments`). The quoted message's text and
 * sender are read alongside, as `findQuoted` does.
 */
export const messageViewJson: SQL = sql`row_to_json(row(
    ${messages.id}, ${messages.roomId}, ${messages.ticketId}, ${messages.kind}, ${messages.direction},
    row(${messages.senderType}, ${messages.senderId}, ${messages.senderName})::message_sender_view,
    ${messages.text}, '[]'::json,
    case when ${messages.quotedMessageId} is null then null else
      (select json_build_object('id', q.id, 'text', q.text, 'senderName', q.sender_name)
         from ${messages} q where q.client_id = ${messages.clientId} and q.id = ${messages.quotedMessageId}) end,
    ${messages.status}, ${messages.failureReason}, ${messages.clientMessageId}, ${isoOf(sql`${messages.createdAt}`)}
  )::message_view)::text`;

/** The row's attachments when it has any (they need the server's signed links), else null. */
export const messageAttachmentsJson: SQL = sql`case when jsonb_array_length(${messages.attachments}) > 0 then ${messages.attachments} end`;

/** What a message's JSON columns read back as, from the driver. */
export interface MessageJsonRow {
  id: number;
  view: string;
  attachments: MessageRow['attachments'] | null;
}

/** A message's JSON text with its attachments presented (links made by `linkOf`). */
export function messageJsonOf(
  row: MessageJsonRow,
  linkOf: (attachment: { id: string; url?: string }) => string,
): string {
  if (!row.attachments) return row.view;
  const view = JSON.parse(row.view) as { attachments: AttachmentView[] };
  view.attachments = row.attachments.map((attachment) => presentAttachment(attachment, linkOf));
  return JSON.stringify(view);
}

/**
 * A row of `tickets` as `TicketSummary` JSON text: the stored `summary_view` (migration 0027),
 * with `expired` set when the ticket is open and past its expiry at the statement's time. The
 * stored text says `"expired":false`; the key appears once, since a quote inside any value is
 * escaped, and only expired tickets have it replaced.
 */
export const ticketSummaryJson: SQL = sql`case
    when ${tickets.status} in ('UNASSIGNED', 'ASSIGNED') and ${tickets.expiresAt} <= now()
    then replace(${tickets.summaryView}, '"expired":false', '"expired":true')
    else ${tickets.summaryView} end`;

/** A JSON array of items already written as JSON text. */
export const jsonArrayOf = (items: ReadonlyArray<string>): string => `[${items.join(',')}]`;
