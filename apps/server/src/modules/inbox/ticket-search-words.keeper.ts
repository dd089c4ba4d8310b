import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import { Ticker } from '../../platform/jobs/ticker';

/** Waiting messages one round takes at most, over all clients (one transaction). */
const drainBatch = 500;
/** Rounds one tick runs at most before it lets the next tick go on. */
const roundsPerTick = 20;
/**
 * A tail (a ticket's last search part, begun after another: migration 0036) folds into the
 * part before it once it has been this long without a new tail; the keeper looks for such
 * tails at most every `foldEveryMs`, up to `foldBatch` a time.
 */
const tailQuietMs = 10 * 60_000;
const foldEveryMs = 5_000;
const foldBatch = 500;
/**
 * A part open for new words (migration 0038) is sealed into the word indexes once it has had
 * none for this long; the same ticks look for such parts, up to `sealBatch` a round.
 */
const partQuietMs = 10 * 60_000;
const sealBatch = 1000;
/**
 * Rounds of folding and sealing one housekeeping runs at most while rounds come back full
 * (draining the backlog between them, so new messages do not wait behind it): up to 5,000
 * parts every 5 s, so that a busy hour's quiet conversations do not pile up open.
 */
const housekeepingRounds = 5;

/** The keeper's limits; tests shrink them. */
export interface SearchWordsKeeperLimits {
  tailQuietMs: number;
  foldBatch: number;
  partQuietMs: number;
  sealBatch: number;
}

/**
 * Keeps the keyword search's words (migration 0030): storing a message only notes it in
 * `ticket_search_backlog`, and this drains the notes a few times a second, each ticket's
 * waiting messages into its last words part in one rewrite (and every few seconds folds the
 * tails conversations left, migration 0036, and seals the parts they stopped writing into the
 * word indexes, migration 0038). Every worker process runs one;
 * a client is drained by one transaction at a time (the others pass over it), and a search
 * drains its own client first (`ticket_search_catch_up`), so it never waits for a tick.
 */
export class SearchWordsKeeper {
  private readonly ticker = new Ticker(() => this.drain());
  /** Rows taken and rounds that failed since the start (for the bench and the tests). */
  readonly stats = { taken: 0, failures: 0 };
  private lastFoldAt = 0;
  private readonly limits: SearchWordsKeeperLimits;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
    limits: Partial<SearchWordsKeeperLimits> = {},
  ) {
    this.limits = { tailQuietMs, foldBatch, partQuietMs, sealBatch, ...limits };
  }

  start(intervalMs: number): void {
    this.ticker.start(intervalMs);
  }

  /**
   * A tick now, after the one running (which may have read the backlog before the caller's
   * messages were stored): rounds until fewer rows wait than a round takes.
   */
  tick(): Promise<void> {
    return this.ticker.run();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  /**
   * Folds tails that have been quiet `quietMs` (or `tailQuietMs`) into the parts before them;
   * answers how many tails it took. The keeper's ticks call it every few seconds.
   */
  async foldQuietTails(quietMs = this.limits.tailQuietMs): Promise<number> {
    const [row] = await this.database.query<{ taken: number }>(
      'select ticket_search_fold_quiet($1, $2::interval) as taken',
      [this.limits.foldBatch, `${quietMs} milliseconds`],
    );
    return Number(row?.taken ?? 0);
  }

  /**
   * Seals parts that have had no new word for `quietMs` (or `partQuietMs`) into the word
   * indexes; answers how many. The keeper's ticks call it every few seconds.
   */
  async sealQuietParts(quietMs = this.limits.partQuietMs): Promise<number> {
    const [row] = await this.database.query<{ sealed: number }>(
      'select ticket_search_seal_quiet($1, $2::interval) as sealed',
      [this.limits.sealBatch, `${quietMs} milliseconds`],
    );
    return Number(row?.sealed ?? 0);
  }

  private async drain(): Promise<void> {
    await this.drainBacklog();
    if (Date.now() - this.lastFoldAt < foldEveryMs) return;
    this.lastFoldAt = Date.now();
    try {
      for (let round = 0; round < housekeepingRounds; round += 1) {
        if (round > 0) await this.drainBacklog();
        const folded = await this.foldQuietTails();
        const sealed = await this.sealQuietParts();
        if (folded < this.limits.foldBatch && sealed < this.limits.sealBatch) return;
      }
    } catch (error) {
      // The tails and parts stay as they are; a later tick takes them.
      this.stats.failures += 1;
      this.logger.warn({ err: error }, 'search words: folding tails or sealing parts failed');
    }
  }

  private async drainBacklog(): Promise<void> {
    for (let round = 0; round < roundsPerTick; round += 1) {
      try {
        const [row] = await this.database.query<{ taken: number }>(
          'select ticket_search_drain($1) as taken',
          [drainBatch],
        );
        const taken = Number(row?.taken ?? 0);
        this.stats.taken += taken;
        if (taken < drainBatch) return;
      } catch (error) {
        // The rows stay where they are; the next tick takes them again.
        this.stats.failures += 1;
        this.logger.warn({ err: error }, 'search words: a drain round failed');
        return;
      }
    }
  }
}
