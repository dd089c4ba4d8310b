import type { FastifyBaseLogger } from 'fastify';
import { Ticker } from '../platform/jobs/ticker';
import type { DatabaseHandle } from './client';

/**
 * Merges the pending lists of the GIN indexes into their trees every few seconds (migration
 * 0033), so that a search reads a few seconds' new entries at most instead of up to 4 MB of
 * them, and no customer's message is the insert that finds a list full and merges it inside
 * its own transaction. Every worker process runs one; the function lets one caller at a time
 * through and the others pass.
 */
export class GinPendingListsKeeper {
  private readonly ticker = new Ticker(() => this.clean());
  /** Pages merged and rounds that failed since the start (for the bench and the tests). */
  readonly stats = { pages: 0, failures: 0 };

  constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /** Rounds every `intervalMs`; 0 leaves the lists to PostgreSQL (VACUUM and the 4 MB limit). */
  start(intervalMs: number): void {
    this.ticker.start(intervalMs);
  }

  /** One round now (after the one running): the pages it merged. */
  round(): Promise<number> {
    return this.ticker.run();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async clean(): Promise<number> {
    try {
      const [row] = await this.database.query<{ pages: number }>('select gin_pending_lists_clean() as pages');
      const pages = Number(row?.pages ?? 0);
      this.stats.pages += pages;
      return pages;
    } catch (error) {
      // The entries stay in the lists, where searches still find them; the next round merges them.
      this.stats.failures += 1;
      this.logger.warn({ err: error }, 'gin pending lists: a round failed');
      return 0;
    }
  }
}
