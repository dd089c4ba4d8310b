import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { messages, ticketCategories, tickets, users } from '../../db/schema';
import { ofTicketMessages, ticketBound } from './ticket-messages';

/** What a download row adds to a ticket: the people's and category's names, and its messages. */
export interface TicketExportDetails {
  ticketId: number;
  assigneeName: string | null;
  closedByName: string | null;
  categoryName: string | null;
  messageCount: number;
  firstCustomerMessage: string | null;
}

const assignee = alias(users, 'assignee');
const closer = alias(users, 'closer');

/**
 * Names, message count and first customer message for one page of tickets. The message
 * figures are per-ticket reads of the ticket's range of its room's messages (ticket-messages.ts),
 * bounded by the page size.
 */
export async function findTicketExportDetails(
  tx: Executor,
  clientId: string,
  ticketIds: number[],
): Promise<TicketExportDetails[]> {
  if (ticketIds.length === 0) return [];
  const ofTicket = ofTicketMessages(clientId);
  return tx
    .select({
      ticketId: tickets.id,
      assigneeName: assignee.name,
      closedByName: closer.name,
      categoryName: ticketCategories.name,
      messageCount: sql<number>`(select count(*)::int from ${messages} where ${ofTicket})`,
      firstCustomerMessage: sql<string | null>`(select ${messages.text} from ${messages}
        where ${ofTicket} and ${messages.senderType} = 'CUSTOMER' order by ${messages.id} limit 1)`,
    })
    .from(tickets)
    .innerJoin(sql`lateral ${ticketBound}`, sql`true`)
    .leftJoin(assignee, and(eq(assignee.id, tickets.assigneeId), eq(assignee.clientId, clientId)))
    .leftJoin(closer, and(eq(closer.id, tickets.closedBy), eq(closer.clientId, clientId)))
    .leftJoin(
      ticketCategories,
      and(eq(ticketCategories.id, tickets.categoryId), eq(ticketCategories.clientId, clientId)),
    )
    .where(and(eq(tickets.clientId, clientId), inArray(tickets.id, ticketIds)));
}
