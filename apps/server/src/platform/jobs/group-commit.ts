/**
 * Group commit: writes that arrive faster than they are stored share a transaction.
 *
 * Items are queued by key (a tenant: one transaction serves one tenant). While fewer than
 * `maxInFlight` transactions of a key are running, the items waiting for it leave at once:
 * a lone item goes straight to `one` and waits for nothing, so an idle system answers as
 * fast as without the queue. When every slot is taken, the items that arrive meanwhile wait
 * for the next free slot and leave together (up to `maxBatch`) through `many`, and the
 * transaction's begin, set-up, commit and flush are paid once for all of them.
 *
 * `many` answers each item's result in order, or `undefined` for an item it did not keep
 * (its own error, say); those are stored again one at a time, in order, through `one`, whose
 * error is the caller's. Should `many` fail as a whole, every item of the batch is stored
 * again through `one`, so one bad item never costs another its write.
 */
export interface GroupCommitOptions<I, R> {
  one(item: I): Promise<R>;
  many(key: string, items: I[]): Promise<Array<R | undefined>>;
  /** Transactions of one key running at once. */
  maxInFlight: number;
  /** Items in one transaction. */
  maxBatch: number;
  /**
   * Items of one order key (a customer) are stored in the order they were submitted: while
   * one is in flight, the key's later items wait for its transaction to end.
   */
  orderKey?(item: I): string;
}

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

interface Lane<I, R> {
  waiting: Waiting<I, R>[];
  inFlight: number;
  /** Order keys with an item in flight. */
  busy: Set<string>;
}

export class GroupCommitQueue<I, R> {
  private readonly lanes = new Map<string, Lane<I, R>>();
  /**
   * Batches stored together and the items they carried, batches that failed as a whole,
   * items a batch gave back to be stored alone, and items that went alone (for the bench
   * and the tests).
   */
  readonly stats = { batches: 0, batchedItems: 0, batchFailures: 0, givenBack: 0, storedAlone: 0 };

  constructor(private readonly options: GroupCommitOptions<I, R>) {}

  submit(key: string, item: I): Promise<R> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], inFlight: 0, busy: new Set() };
      this.lanes.set(key, lane);
    }
    const queued = new Promise<R>((resolve, reject) => lane.waiting.push({ item, resolve, reject }));
    this.pump(key, lane);
    return queued;
  }

  private pump(key: string, lane: Lane<I, R>): void {
    while (lane.inFlight < this.options.maxInFlight && lane.waiting.length > 0) {
      const batch = this.take(lane);
      if (batch.length === 0) return;
      const orderKey = this.options.orderKey;
      const keys = orderKey ? new Set(batch.map((entry) => orderKey(entry.item))) : null;
      for (const busy of keys ?? []) lane.busy.add(busy);
      lane.inFlight += 1;
      void this.store(key, batch).finally(() => {
        lane.inFlight -= 1;
        for (const busy of keys ?? []) lane.busy.delete(busy);
        if (lane.waiting.length > 0) this.pump(key, lane);
        else if (lane.inFlight === 0) this.lanes.delete(key);
      });
    }
  }

  /** The next batch: the oldest waiting items whose order key has nothing in flight. */
  private take(lane: Lane<I, R>): Waiting<I, R>[] {
    const orderKey = this.options.orderKey;
    if (!orderKey || lane.busy.size === 0) return lane.waiting.splice(0, this.options.maxBatch);
    const batch: Waiting<I, R>[] = [];
    const kept: Waiting<I, R>[] = [];
    for (const entry of lane.waiting) {
      if (batch.length < this.options.maxBatch && !lane.busy.has(orderKey(entry.item))) batch.push(entry);
      else kept.push(entry);
    }
    lane.waiting = kept;
    return batch;
  }

  private async store(key: string, batch: Waiting<I, R>[]): Promise<void> {
    let results: Array<R | undefined>;
    if (batch.length === 1) {
      results = [undefined];
    } else {
      try {
        results = await this.options.many(
          key,
          batch.map((entry) => entry.item),
        );
        this.stats.batches += 1;
        this.stats.batchedItems += batch.length;
      } catch {
        this.stats.batchFailures += 1;
        results = batch.map(() => undefined);
      }
    }
    for (const [index, entry] of batch.entries()) {
      const result = results[index];
      if (result !== undefined) {
        entry.resolve(result);
        continue;
      }
      if (batch.length > 1) this.stats.givenBack += 1;
      this.stats.storedAlone += 1;
      try {
        entry.resolve(await this.options.one(entry.item));
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}
