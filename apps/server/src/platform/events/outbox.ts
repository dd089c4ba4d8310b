import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { outboxEvents } from '../../db/schema';
import { runBatchAtCommit } from '../../db/tenant-connections';

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
 * Writes the event beside the service's rows, and announces it, in one statement. NOTIFY is
 * transactional: listeners hear of the event only once the transaction commits, and never
 * when it rolls back. The event itself travels in the notification (built by PostgreSQL
 * from the row just written), so no listening process has to read it back; one too large
 * is announced by its id alone.
 */
export async function appendEvent(tx: Executor, event: NewEvent): Promise<bigint> {
  const [id] = await appendEvents(tx, [event]);
  return id;
}

/**
 * Several events of one change in one statement (a customer's first message opens a ticket,
 * changes the counts and adds a message): written and announced in the order given.
 */
export async function appendEvents(tx: Executor, events: ReadonlyArray<NewEvent>): Promise<bigint[]> {
  if (events.length === 0) return [];
  const result = (await tx.execute(eventsStatement(events))) as unknown as { rows: Array<{ id: string }> };
  return result.rows.map((row) => BigInt(row.id));
}

/**
 * The events of a change, written and announced with its commit (in the same message on
 * PostgreSQL, see `runBatchAtCommit`): for a hot path that needs no event id back. Should the
 * write fail, the change is rolled back with it.
 */
export async function appendEventsAtCommit(tx: Executor, events: ReadonlyArray<NewEvent>): Promise<void> {
  // Every call of one transaction adds to one statement (`runBatchAtCommit`): an agent's send
  // emits two or three events, and a statement each cost PostgreSQL a tenth of its time a send.
  await runBatchAtCommit(tx, eventsAtCommit, events, eventsStatement);
}

/** The kind of the outbox's batch at commit. */
const eventsAtCommit = {};

/** One event written and announced with its commit: see `appendEventsAtCommit`. */
export async function appendEventAtCommit(tx: Executor, event: NewEvent): Promise<void> {
  await appendEventsAtCommit(tx, [event]);
}

function eventsStatement(events: ReadonlyArray<NewEvent>): SQL {
  return sql`
    with given as (
      select ordinality, value from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality),
    written as (
      insert into ${outboxEvents} (client_id, topic, rooms, payload)
      select (value->>'clientId')::uuid, value->>'topic',
             array(select jsonb_array_elements_text(value->'rooms')), value->'payload'
        from given order by ordinality
      returning id, client_id, topic, rooms, payload, created_at),
    announced as (
      select id, json_build_object('clientId', client_id, 'topic', topic, 'rooms', rooms, 'payload', payload,
                                   'id', id::text, 'createdAt', created_at)::text as inline
        from written)
    select id::text as id,
           pg_notify(${eventChannel}, case when octet_length(inline) <= ${maxInlineNotification} then inline else id::text end)
      from announced order by id`;
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
