import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import type { JobQueue } from '../jobs/job-queue';
import { eventChannel } from './outbox';

/** What a queue keeps of an event's payload; undefined: the queue does not want the event. */
export type EventSelection = (payload: Record<string, unknown>) => Record<string, unknown> | undefined;

interface ClaimedEvent extends Record<string, unknown> {
  id: string;
  client_id: string;
  topic: string;
  /** Null for a topic no queue takes (its payload is not read back). */
  payload: Record<string, unknown> | null;
}

/**
 * The topic of an event as its notification announces it (outbox.ts writes it with
 * `json_build_object`, which spaces the colons: `"topic" : "inbox.message_created"`), or
 * undefined when the notification carries only the event's id (too large to inline).
 */
export function topicOfNotification(notification: string): string | undefined {
  if (!notification.startsWith('{')) return undefined;
  return /"topic"\s*:\s*"([^"]*)"/.exec(notification)?.[1];
}

/** Events one claim takes at most. */
const relayBatchSize = 100;

/**
 * Takes the oldest events not yet relayed, up to $2, and marks them relayed; rows another
 * relay holds are skipped. Most events feed sockets only: they are marked like the rest, but
 * their payloads (a message and its ticket each) are read back only for the topics some
 * queue takes ($1).
 */
const takeEventsText = `
  update outbox_events set relayed_at = now()
   where id in (
     select id from outbox_events
      where relayed_at is null
      order by id limit $2
        for update skip locked)
  returning id::text as id, client_id, topic,
            case when topic = any($1::text[]) then payload end as payload`;

/**
 * Hands committed outbox events to the job queues that subscribe to their topic. A batch of
 * events is marked relayed and its jobs written in one transaction: a crash before the commit
 * leaves both undone, and the events are taken again (each handed over once). Another
 * process's relay skips the events a run holds.
 */
export class OutboxRelay {
  private readonly subscriptions = new Map<string, string[]>();
  /** Topics relayed the moment they commit; the others wait for the timer's sweep. */
  private readonly immediateTopics = new Set<string>();
  /** Queues that take a batch's events of their topics as one job: `{ events: [...] }`. */
  private readonly batchQueues = new Set<string>();
  /** What a queue keeps of a topic's payloads, by `${topic} ${queue}` (see `subscribe`). */
  private readonly selections = new Map<string, EventSelection>();
  private timer?: NodeJS.Timeout;
  /** The run under way; a call meanwhile asks it to go round once more and waits for it. */
  private running?: Promise<void>;
  private again = false;
  private unlisten?: () => Promise<void>;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly queue: JobQueue,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /**
   * Every event of the topic becomes a job on the queue, with the event as its data. With
   * `immediate: false` the topic waits for the timer's sweep (at most `intervalMs`): for
   * frequent events whose job can wait a moment, such as a push for each message, so the
   * busiest topic does not cost a claim query per event. With `batch: true` the queue gets
   * one job per batch (up to 100 events), its data `{ events: [event, ...] }`. With
   * `select` the job carries only what the queue reads of each payload, and an event it
   * answers undefined for is not handed over at all.
   */
  subscribe(
    topic: string,
    queueName: string,
    options: { immediate?: boolean; batch?: boolean; select?: EventSelection } = {},
  ): void {
    this.subscriptions.set(topic, [...(this.subscriptions.get(topic) ?? []), queueName]);
    if (options.immediate ?? true) this.immediateTopics.add(topic);
    if (options.batch) this.batchQueues.add(queueName);
    if (options.select) this.selections.set(`${topic} ${queueName}`, options.select);
  }

  async start(intervalMs = 250): Promise<void> {
    // Most events (a message, a ticket change) feed sockets only: those wait for the timer's
    // sweep, in batches, instead of costing a claim query each the moment they commit.
    this.unlisten = await this.database.listen(eventChannel, (notification) => {
      if (this.wanted(notification)) void this.relayNow();
    });
    this.timer = setInterval(() => void this.relayNow(), intervalMs);
    await this.relayNow();
  }

  /** Whether a notification may carry an event some queue subscribes to. */
  private wanted(notification: string): boolean {
    const topic = topicOfNotification(notification);
    return topic === undefined || this.immediateTopics.has(topic);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unlisten?.();
    await this.running;
  }

  /**
   * Relays everything pending; a call during a run makes the run go round once more, and
   * resolves when it has. A run ends at its first batch that is not full: what commits
   * meanwhile waits for its own notification or the next sweep. Going round until a claim found nothing turned the relay
   * into a loop under steady load, claiming the few events each of its own round trips let
   * in (about a hundred claims a second, each with its jobs, at 300 messages a second; the
   * twenty-fourth stop), where batching frequent topics means one claim every sweep. The
   * sweep comes every 250 ms (`OUTBOX_RELAY_INTERVAL_MS`): every 2 s, its bursts (a claim and
   * a job of a hundred events, six times over) put the webhook's acknowledgement at p99
   * 25.9–26.7 ms at 300 messages a second, where the loop had 16.4–22.6 ms and a sweep every
   * 250 ms 12.2–21.1 ms.
   */
  relayNow(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Each round catches its own failure, so a call made during a failed round still gets the
   * round it waits on, instead of leaving its events to the next sweep.
   */
  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        while ((await this.relayBatch()) === relayBatchSize) {}
      } catch (error) {
        this.logger.error({ err: error }, 'outbox relay failed; it will try again');
      }
    } while (this.again);
  }

  /** The payload as the queue takes it; a selection that fails keeps it whole (the job decides). */
  private selected(event: ClaimedEvent, queueName: string): Record<string, unknown> | undefined {
    const payload = event.payload ?? {};
    const select = this.selections.get(`${event.topic} ${queueName}`);
    if (!select) return payload;
    try {
      return select(payload);
    } catch {
      return payload;
    }
  }

  private async relayBatch(): Promise<number> {
    const topics = [...this.subscriptions.keys()];
    let jobs: Array<{ name: string; data: object }> = [];
    // The events are marked as they are taken, and their jobs written with the commit: two
    // round trips and one write of each event. Taking them with a 30 s claim, then writing the
    // jobs, then marking them relayed cost three round trips and two writes of each event (a
    // tenth of PostgreSQL's time a message at 300 live-chat messages a second, twenty-sixth
    // stop), and a crash between the jobs and the mark handed the events over twice.
    const taken = await this.database.sqlTransaction(async (tx) => {
      const claimed = await tx.query<ClaimedEvent>(takeEventsText, [topics, relayBatchSize]);
      if (claimed.length === 0) return 0;
      claimed.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      jobs = this.jobsOf(claimed);
      // Every job of the batch in one statement: a statement for each event's job made the
      // relay fall behind while agents sent (6,234 events waiting after 10 s of the inbox
      // bench's agent sends, twentieth stop).
      await this.queue.writeMany(jobs, async (text, values) => ({
        rows: await tx.queryAndCommit(text, values),
      }));
      return claimed.length;
    });
    this.queue.wakeQueuesOf(jobs);
    return taken;
  }

  /** The jobs of a batch of events, in the events' order; a batch queue's as one job. */
  private jobsOf(claimed: ReadonlyArray<ClaimedEvent>): Array<{ name: string; data: object }> {
    const jobs: Array<{ name: string; data: object }> = [];
    const batches = new Map<string, object[]>();
    for (const event of claimed) {
      for (const queueName of this.subscriptions.get(event.topic) ?? []) {
        const payload = this.selected(event, queueName);
        if (payload === undefined) continue;
        const data = { eventId: event.id, clientId: event.client_id, topic: event.topic, payload };
        if (this.batchQueues.has(queueName))
          batches.set(queueName, [...(batches.get(queueName) ?? []), data]);
        else jobs.push({ name: queueName, data });
      }
    }
    for (const [queueName, events] of batches) jobs.push({ name: queueName, data: { events } });
    return jobs;
  }
}
