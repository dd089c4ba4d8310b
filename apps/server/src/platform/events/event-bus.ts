import { and, asc, eq, gt, inArray, max, min, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import { outboxEvents } from '../../db/schema';
import { eventChannel } from './outbox';

/** A committed event as it reaches subscribers in this process. */
export interface DeliveredEvent {
  cursor: bigint;
  clientId: string;
  topic: string;
  rooms: string[];
  payload: Record<string, unknown>;
  createdAt: Date;
}

type Subscriber = (event: DeliveredEvent) => void;

/**
 * When the listening connection comes back, the bus reads what it missed from this many
 * cursors before the newest it delivered: a lower cursor may commit after a higher one.
 */
const catchUpMargin = 1_000n;
/** Events one catch-up read takes. */
const catchUpPage = 500;
/** Past this many missed events, subscribers are told to start over instead (`onMissed`). */
export const maxCatchUpEvents = 5_000;
/** How many delivered cursors the bus remembers, so that a catch-up delivers none twice. */
const rememberedCursors = 4_096;

const toDelivered = (row: typeof outboxEvents.$inferSelect): DeliveredEvent => ({
  cursor: row.id,
  clientId: row.clientId,
  topic: row.topic,
  rooms: row.rooms,
  payload: row.payload,
  createdAt: row.createdAt,
});

/**
 * Hears committed events through LISTEN/NOTIFY (across processes on PostgreSQL, in the
 * process on PGlite) and hands them, in commit order, to this process's subscribers.
 */
export class EventBus {
  private readonly subscribers = new Set<Subscriber>();
  private readonly missedListeners = new Set<() => void>();
  /** Topics handed over even when too many events were missed to hand over the rest. */
  private readonly vitalTopics = new Set<string>();
  private unlisten?: () => Promise<void>;
  private chain: Promise<void> = Promise.resolve();
  /** The highest cursor delivered (or the newest when listening began). */
  private newest = 0n;
  /** Cursors delivered lately, oldest first. */
  private readonly delivered = new Set<bigint>();
  /** Catch-ups after a dropped connection, and the events they delivered (for tests). */
  readonly stats = { catchUps: 0, caughtUp: 0, missed: 0 };

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      eventChannel,
      // Chained so that events reach subscribers in the order their commits were heard.
      (payload) => this.enqueue(() => this.deliver(payload)),
      () => this.enqueue(() => this.catchUp()),
    );
    const { newest } = await this.cursorRange();
    if (newest > this.newest) this.newest = newest;
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error) => {
      this.logger.error({ err: error }, 'event delivery failed');
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.chain;
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * Called when subscribers cannot be caught up (more than `maxCatchUpEvents` were missed
   * while the connection was down): they should have their sockets start over.
   */
  onMissed(listener: () => void): () => void {
    this.missedListeners.add(listener);
    return () => this.missedListeners.delete(listener);
  }

  /**
   * Events of the topic are handed over after a dropped connection even when the rest are
   * not (`onMissed`): a revoked session must still close its sockets.
   */
  catchUpAlways(topic: string): void {
    this.vitalTopics.add(topic);
  }

  private async deliver(notification: string): Promise<void> {
    const event = await this.eventOf(notification);
    if (event) this.hand(event);
  }

  /**
   * The listening connection dropped and is back: hands over the events committed meanwhile,
   * read from the outbox. The notifications heard since it came back wait behind this in the
   * chain; an event both read here and heard goes out once. When more were missed than
   * `maxCatchUpEvents`, or they cannot be read, none is handed over: the subscribers are
   * told to start over (`onMissed`).
   */
  private async catchUp(): Promise<void> {
    this.stats.catchUps += 1;
    const found: DeliveredEvent[] = [];
    const from = this.newest > catchUpMargin ? this.newest - catchUpMargin : 0n;
    try {
      let after = from;
      for (;;) {
        const rows = await this.database.db
          .select()
          .from(outboxEvents)
          .where(gt(outboxEvents.id, after))
          .orderBy(asc(outboxEvents.id))
          .limit(catchUpPage);
        for (const row of rows) if (!this.delivered.has(row.id)) found.push(toDelivered(row));
        if (found.length > maxCatchUpEvents) return await this.startOver(found.length, from);
        if (rows.length < catchUpPage) break;
        after = rows[rows.length - 1].id;
      }
    } catch (error) {
      this.logger.error({ err: error }, 'reading the events missed while listening was down failed');
      return await this.startOver(found.length, from);
    }
    this.stats.caughtUp += found.length;
    for (const event of found) this.hand(event);
  }

  private async startOver(missed: number, from: bigint): Promise<void> {
    this.stats.missed += 1;
    this.logger.warn({ missed }, 'events missed while listening was down; sockets start over');
    const { newest } = await this.cursorRange().catch(() => ({ newest: this.newest }));
    if (this.vitalTopics.size > 0) {
      try {
        const vital = await this.database.db
          .select()
          .from(outboxEvents)
          .where(and(gt(outboxEvents.id, from), inArray(outboxEvents.topic, [...this.vitalTopics])))
          .orderBy(asc(outboxEvents.id));
        for (const row of vital) this.hand(toDelivered(row));
      } catch (error) {
        this.logger.error({ err: error }, 'reading the vital events missed while listening was down failed');
      }
    }
    if (newest > this.newest) this.newest = newest;
    for (const listener of this.missedListeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: error }, 'missed-events listener failed');
      }
    }
  }

  /** Gives an event to every subscriber, once. */
  private hand(event: DeliveredEvent): void {
    if (this.delivered.has(event.cursor)) return;
    this.delivered.add(event.cursor);
    if (this.delivered.size > rememberedCursors) {
      this.delivered.delete(this.delivered.values().next().value as bigint);
    }
    if (event.cursor > this.newest) this.newest = event.cursor;
    for (const subscriber of this.subscribers) {
      try {
        subscriber(event);
      } catch (error) {
        this.logger.error({ err: error, topic: event.topic }, 'event subscriber failed');
      }
    }
  }

  /** The event a notification carries, or, for one too large to carry, its row by id. */
  private async eventOf(notification: string): Promise<DeliveredEvent | null> {
    if (notification.startsWith('{')) {
      const inline = JSON.parse(notification) as Omit<DeliveredEvent, 'cursor' | 'createdAt'> & {
        id: string;
        createdAt: string;
      };
      return {
        cursor: BigInt(inline.id),
        clientId: inline.clientId,
        topic: inline.topic,
        rooms: inline.rooms,
        payload: inline.payload,
        createdAt: new Date(inline.createdAt),
      };
    }
    if (!/^\d+$/.test(notification)) return null;
    const [row] = await this.database.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.id, BigInt(notification)));
    return row ? toDelivered(row) : null;
  }

  /** Events of one client after a cursor, in any of the rooms, oldest first. */
  async readAfter(
    clientId: string,
    cursor: bigint,
    inRooms: string[],
    limit: number,
  ): Promise<DeliveredEvent[]> {
    const rows = await this.database.db
      .select()
      .from(outboxEvents)
      .where(
        and(
          eq(outboxEvents.clientId, clientId),
          gt(outboxEvents.id, cursor),
          sql`${outboxEvents.rooms} && ${sql.param(inRooms)}::text[]`,
        ),
      )
      .orderBy(asc(outboxEvents.id))
      .limit(limit);
    return rows.map(toDelivered);
  }

  /** The oldest and newest cursors still kept. */
  async cursorRange(): Promise<{ oldest: bigint | null; newest: bigint }> {
    const [row] = await this.database.db
      .select({ oldest: min(outboxEvents.id), newest: max(outboxEvents.id) })
      .from(outboxEvents);
    return { oldest: row?.oldest ?? null, newest: row?.newest ?? 0n };
  }
}
