import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { outboxEvents } from '../../db/schema';

/** The NOTIFY channel that tells every process a new event has committed. */
export const eventChannel = 'app_events';

/** An event as a service writes it, inside its own transaction. */
export interface NewEvent {
  clientId: string;
  topic: string;
  /** Realtime rooms that receive it, e.g. `client:<id>`, `user:<id>`, `ticket:<id>`. */
  rooms: string[];
  payload: Record<string, unknown>;
}

/** NOTIFY payloads must stay under 8000 bytes; a larger event is announced by its id alone. */
const maxInlineNotification = 7000;

/**
 * Writes the event beside the service's rows. NOTIFY is transactional: listeners hear of
 * the event only once the transaction commits, and never when it rolls back. The event
 * itself travels in the notification, so no listening process has to read it back.
 */
export async function appendEvent(tx: Executor, event: NewEvent): Promise<bigint> {
  const [row] = await tx
    .insert(outboxEvents)
    .values(event)
    .returning({ id: outboxEvents.id, createdAt: outboxEvents.createdAt });
  const inline = JSON.stringify({ ...event, id: row.id.toString(), createdAt: row.createdAt.toISOString() });
  const notification = Buffer.byteLength(inline) <= maxInlineNotification ? inline : row.id.toString();
  await tx.execute(sql`select pg_notify(${eventChannel}, ${notification})`);
  return row.id;
}

/** Room names, so that every module spells them the same way. */
export const rooms = {
  client: (clientId: string) => `client:${clientId}`,
  user: (userId: string) => `user:${userId}`,
  ticket: (ticketId: number | string) => `ticket:${ticketId}`,
  /** Everyone of the client who sees every chat (owners, admins, supervisors). */
  inbox: (clientId: string) => `inbox:${clientId}`,
  /** Everyone of the client who sees the unassigned queue. */
  queue: (clientId: string) => `queue:${clientId}`,
  /** A live-chat visitor (one contact identity): their widget's sockets listen here. */
  visitor: (contactIdentityId: string) => `visitor:${contactIdentityId}`,
};
