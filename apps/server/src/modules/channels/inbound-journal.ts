import type { ChannelCode } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { GroupCommitQueue } from '../../platform/jobs/group-commit';
import { Ticker } from '../../platform/jobs/ticker';
import {
  appendEntries,
  deleteEntries,
  entryFailed,
  type JournalEntry,
  type NewJournalEntry,
  takeDueEntries,
} from './inbound-journal.repository';

export type { JournalEntry, NewJournalEntry } from './inbound-journal.repository';

/** Stores one entry as a message; throws to try again later, `UnstorableEntry` to let it go. */
export type JournalHandler = (entry: JournalEntry) => Promise<void>;

/** An entry that can never become a message (its account is gone): it is logged and let go. */
export class UnstorableEntry extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnstorableEntry';
  }
}

export interface InboundJournalOptions {
  /**
   * Whether the process that keeps an update stores it too (`all`), or leaves it to the
   * worker processes, woken by a notice at commit (`web`): the webhook's process then only
   * keeps and answers.
   */
  storeHere?: boolean;
  /** How long the process that received an entry has to store it before another may. */
  leaseMs?: number;
  /** The first wait after a failed try; it doubles with each, up to an hour. */
  firstBackoffMs?: number;
  /** Entries of one client kept in one transaction, and such transactions at once. */
  batchMax?: number;
  inFlight?: number;
}

/** Stored entries are forgotten together: at most this many, or after this long. */
const deleteBatch = 200;
const deleteAfterMs = 50;
/** Due entries one sweep takes at most, and sweeps one tick runs. */
const sweepBatch = 100;
const sweepsPerTick = 10;

/**
 * Persist, then acknowledge, then store: what a webhook cannot store while the provider waits
 * (a message whose file must first be fetched from the provider) is kept in `inbound_journal`
 * (migration 0035), and the provider answered as soon as that is committed; the same process
 * (or, behind a web process, a worker) then stores it as a message through its channel's
 * handler, and forgets the entry. The acknowledgement waits for one small insert, shared by
 * the updates that arrive together (group commit). Messages that need nothing from the
 * provider are stored before the answer instead: putting them through the journal made the
 * answer no quicker and the message later (bench/history.md, twenty-fourth stop).
 *
 * Nothing is lost on the way: an entry whose try failed (the provider's file not there yet,
 * the database away) is tried again after a backoff, and one whose process stopped is taken by
 * any process's sweeper once its lease ends. Storing is idempotent by the provider's message
 * id, so an entry stored twice (a sweep after a slow try, a delete that did not happen) is a
 * repeat, kept once.
 */
export class InboundJournal {
  private readonly handlers = new Map<ChannelCode, JournalHandler>();
  private readonly appends: GroupCommitQueue<NewJournalEntry, number>;
  private readonly sweeper = new Ticker(() => this.sweep());
  private readonly leaseMs: number;
  private readonly storeHere: boolean;
  /** A sweep asked for by a notice and not begun yet (more notices meanwhile ask for none). */
  private wakePending = false;
  private unlisten?: () => Promise<void>;
  private readonly firstBackoffMs: number;
  private stored: number[] = [];
  private deleteTimer?: NodeJS.Timeout;
  private deleting: Promise<void> = Promise.resolve();
  /** Tries under way in this process (for `settled`). */
  private readonly trying = new Set<Promise<void>>();
  /** For the bench and the tests. */
  readonly stats = { kept: 0, stored: 0, failures: 0, letGo: 0, swept: 0 };

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
    options: InboundJournalOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.storeHere = options.storeHere ?? true;
    this.firstBackoffMs = options.firstBackoffMs ?? 5_000;
    this.appends = new GroupCommitQueue<NewJournalEntry, number>({
      one: (entry) => this.append(entry.clientId, [entry]).then(([id]) => id),
      many: (clientId, entries) => this.append(clientId, entries),
      maxInFlight: options.inFlight ?? 2,
      maxBatch: options.batchMax ?? 64,
    });
  }

  /** The adapter that stores a channel's entries. */
  handle(channel: ChannelCode, handler: JournalHandler): void {
    this.handlers.set(channel, handler);
  }

  /**
   * Keeps what a webhook received; resolves once it is committed (the webhook may then
   * answer), and stores it in the background, here or in a worker process.
   */
  async keep(entry: NewJournalEntry): Promise<void> {
    const id = await this.appends.submit(entry.clientId, entry);
    this.stats.kept += 1;
    if (this.storeHere) this.track(this.store({ ...entry, id, attempts: 0 }));
  }

  /**
   * A worker process's part: takes due entries every `intervalMs` (those of stopped
   * processes and failed tries), and at once when a web process says it kept some.
   */
  async start(intervalMs: number): Promise<void> {
    this.sweeper.start(intervalMs);
    this.unlisten = await this.database.listen('inbound_journal', () => this.wake());
  }

  /** A sweep now, after the one under way. */
  sweepNow(): Promise<void> {
    return this.sweeper.run();
  }

  /** Waits for this process's tries under way and forgets what they stored. */
  async settled(): Promise<void> {
    while (this.trying.size > 0) await Promise.allSettled([...this.trying]);
    await this.flushStored();
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.sweeper.stop();
    await this.settled();
  }

  private wake(): void {
    if (this.wakePending) return;
    this.wakePending = true;
    void this.sweeper.run();
  }

  /** Entries another process stores are due at once; this process's own are leased to it. */
  private append(clientId: string, entries: NewJournalEntry[]): Promise<number[]> {
    const leaseMs = this.storeHere ? this.leaseMs : 0;
    return withTenant(this.database.db, clientId, (tx) =>
      appendEntries(tx, clientId, entries, leaseMs, !this.storeHere),
    );
  }

  private track(trying: Promise<void>): Promise<void> {
    this.trying.add(trying);
    void trying.finally(() => this.trying.delete(trying));
    return trying;
  }

  private async store(entry: JournalEntry): Promise<void> {
    const handler = this.handlers.get(entry.channel);
    try {
      // Kept for a process that has one (a deployment half upgraded, say), never let go.
      if (!handler) throw new Error(`No adapter stores ${entry.channel} entries in this process`);
      await handler(entry);
      this.stats.stored += 1;
      this.forget(entry.id);
    } catch (error) {
      if (error instanceof UnstorableEntry) {
        this.stats.letGo += 1;
        this.logger.warn({ entry: entry.id, reason: error.message }, 'inbound journal: entry let go');
        this.forget(entry.id);
        return;
      }
      this.stats.failures += 1;
      this.logger.warn({ err: error, entry: entry.id }, 'inbound journal: not stored yet, will try again');
      // Should even this fail, the lease ends and a sweep takes the entry again.
      await entryFailed(
        this.database,
        entry.id,
        String((error as Error)?.message ?? error),
        this.firstBackoffMs,
      ).catch(() => undefined);
    }
  }

  private forget(id: number): void {
    this.stored.push(id);
    if (this.stored.length >= deleteBatch) void this.flushStored();
    else this.deleteTimer ??= setTimeout(() => void this.flushStored(), deleteAfterMs);
  }

  /** Deletes the stored entries in one statement; one that stays is a repeat when taken again. */
  private flushStored(): Promise<void> {
    clearTimeout(this.deleteTimer);
    this.deleteTimer = undefined;
    const ids = this.stored;
    this.stored = [];
    if (ids.length > 0) {
      this.deleting = this.deleting
        .then(() => deleteEntries(this.database, ids))
        .catch((error) =>
          this.logger.warn({ err: error }, 'inbound journal: stored entries not forgotten yet'),
        );
    }
    return this.deleting;
  }

  private async sweep(): Promise<void> {
    this.wakePending = false;
    for (let round = 0; round < sweepsPerTick; round += 1) {
      let due: JournalEntry[];
      try {
        due = await takeDueEntries(this.database, sweepBatch, this.leaseMs);
      } catch (error) {
        this.logger.warn({ err: error }, 'inbound journal: a sweep failed');
        return;
      }
      // Handed on in order, together: the conversations' group commit stores one customer's
      // messages in the order they were handed to it, and several customers' in one transaction.
      this.stats.swept += due.length;
      await Promise.allSettled(due.map((entry) => this.track(this.store(entry))));
      await this.flushStored();
      if (due.length < sweepBatch) return;
    }
  }
}
