import { type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { messages, tickets } from '../../db/schema';

const nextTicket = alias(tickets, 'next_ticket');
/** `from` of the alias: in a template, the alias itself renders as its name alone. */
const nextTicketFrom = sql`${tickets} as ${sql.identifier('next_ticket')}`;

/** Above every message id: the bound of a room's newest ticket. */
const noCeiling = sql.raw('9223372036854775807');

/**
 * The upper bound of the messages of the ticket that the query around names as `tickets`: the
 * floor of its room's next ticket, or none for the room's newest. A `from` item, named
 * `ticket_bound` with its column `ceiling`, to join laterally beside the ticket (or to list
 * before `messages` where the messages' order does not matter), so that the bound is a plain
 * value: written in the condition itself it is a subplan, which row-level security does not
 * let into an index's range (it cannot know that the subplan leaks nothing of the rows it is
 * given), and the scan then read the room from its newest message down: 51,737 buffers for the
 * snippets of the giant room's 22 tickets. Inside the same `from` as the messages the bound is
 * a join, and the messages come out of it unordered: 4,545 rows read and sorted for each of
 * those tickets' first match. Beside the ticket, a read newest first stops at its first match.
 * `offset 0` keeps PostgreSQL from folding the subquery back into the condition.
 */
export const ticketBound: SQL = sql`(select coalesce((select ${nextTicket.messageFloor} from ${nextTicketFrom}
    where ${nextTicket.roomId} = ${tickets.roomId} and ${nextTicket.id} > ${tickets.id}
    order by ${nextTicket.id} limit 1), ${noCeiling}) as ceiling offset 0) as ticket_bound`;

/**
 * The condition that a row of `messages` is one of the ticket's (`tickets`, with `ticketBound`
 * in the query), read over `messages_room_idx` (migration 0042 dropped the index by ticket). A
 * ticket takes messages only while it is its room's open ticket, so they lie above its floor
 * and at or below the floor of the room's next ticket; the ticket's id is still checked on
 * each row read.
 */
export function ofTicketMessages(clientId: string): SQL {
  return sql`${messages.clientId} = ${clientId} and ${messages.roomId} = ${tickets.roomId}
    and ${messages.id} > ${tickets.messageFloor} and ${messages.id} <= ticket_bound.ceiling
    and ${messages.ticketId} = ${tickets.id}`;
}

/**
 * Each ticket of the client's floor set just below its first message. For seeds that write
 * many tickets before their messages (the floor a ticket takes when it is made is where the
 * sequence stood then): a ticket's messages must be written in the order of the room's
 * tickets, as the product writes them.
 */
export async function settleMessageFloors(tx: Executor, clientId: string): Promise<void> {
  await tx.execute(sql`
    update ${tickets} set message_floor = first.id - 1
      from (select ${messages.ticketId} as ticket_id, min(${messages.id}) as id from ${messages}
             where ${messages.clientId} = ${clientId} group by ${messages.ticketId}) first
     where ${tickets.id} = first.ticket_id and ${tickets.clientId} = ${clientId}
       and ${tickets.messageFloor} <> first.id - 1`);
}
