import { and, asc, eq, gt, max, min, sql } from 'drizzle-orm';
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
  private unlisten?: () => Promise<void>;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(eventChannel, (payload) => {
      // Chained so that events reach subscribers in the order their commits were heard.
      this.chain = this.chain
        .then(() => this.deliver(payload))
        .catch((error) => {
          this.logger.error({ err: error }, 'event delivery failed');
        });
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

  private async deliver(notification: string): Promise<void> {
    const event = await this.eventOf(notification);
    if (!event) return;
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
