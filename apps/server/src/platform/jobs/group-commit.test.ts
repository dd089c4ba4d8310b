import { describe, expect, it } from 'vitest';
import { GroupCommitQueue } from './group-commit';

interface Item {
  customer: string;
  n: number;
  bad?: boolean;
}

/** A store that keeps what it is given, in order, and can be made to refuse. */
function storeWith(options: { failMany?: boolean; maxInFlight?: number; maxBatch?: number } = {}) {
  const stored: string[] = [];
  const transactions: string[][] = [];
  let running = 0;
  let mostRunning = 0;
  const settle = async <T>(work: () => T): Promise<T> => {
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
    return work();
  };
  const name = (item: Item) => `${item.customer}${item.n}`;
  const queue = new GroupCommitQueue<Item, string>({
    one: (item) =>
      settle(() => {
        if (item.bad) throw new Error(`refused ${name(item)}`);
        stored.push(name(item));
        transactions.push([name(item)]);
        return name(item);
      }),
    many: (_key, items) =>
      settle(() => {
        if (options.failMany) throw new Error('the whole batch failed');
        const kept = items.filter((item) => !item.bad).map(name);
        stored.push(...kept);
        transactions.push(kept);
        return items.map((item) => (item.bad ? undefined : name(item)));
      }),
    maxInFlight: options.maxInFlight ?? 2,
    maxBatch: options.maxBatch ?? 8,
    orderKey: (item) => item.customer,
  });
  return { queue, stored, transactions, mostRunning: () => mostRunning };
}

describe('GroupCommitQueue', () => {
  it('sends a lone item straight through, alone', async () => {
    const { queue, transactions } = storeWith();
    expect(await queue.submit('client', { customer: 'a', n: 1 })).toBe('a1');
    expect(transactions).toEqual([['a1']]);
    expect(queue.stats.batches).toBe(0);
  });

  it('gathers what arrives while the slots are taken, keeps each customer in order, and never runs more than maxInFlight', async () => {
    const { queue, stored, transactions, mostRunning } = storeWith({ maxInFlight: 2, maxBatch: 4 });
    const items: Item[] = [];
    for (let n = 1; n <= 5; n++) for (const customer of ['a', 'b', 'c']) items.push({ customer, n });
    const results = await Promise.all(items.map((item) => queue.submit('client', item)));
    expect(results).toEqual(items.map((item) => `${item.customer}${item.n}`));
    expect(stored).toHaveLength(15);
    for (const customer of ['a', 'b', 'c'])
      expect(stored.filter((name) => name.startsWith(customer))).toEqual(
        [1, 2, 3, 4, 5].map((n) => `${customer}${n}`),
      );
    expect(mostRunning()).toBeLessThanOrEqual(2);
    expect(Math.max(...transactions.map((batch) => batch.length))).toBeLessThanOrEqual(4);
    expect(queue.stats.batches).toBeGreaterThan(0);
  });

  it('stores alone, in order, what a batch gave back; the refused one fails with its own error', async () => {
    const { queue, stored } = storeWith({ maxInFlight: 1 });
    const first = queue.submit('client', { customer: 'a', n: 1 });
    const rest = [
      queue.submit('client', { customer: 'b', n: 1 }),
      queue.submit('client', { customer: 'c', n: 1, bad: true }),
      queue.submit('client', { customer: 'd', n: 1 }),
    ];
    await first;
    const settled = await Promise.allSettled(rest);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1].status === 'rejected' && String(settled[1].reason)).toContain('refused c1');
    expect(stored).toEqual(['a1', 'b1', 'd1']);
    expect(queue.stats.givenBack).toBe(1);
  });

  it('when a batch fails as a whole, stores every item again alone', async () => {
    const { queue, stored, transactions } = storeWith({ maxInFlight: 1, failMany: true });
    const all = ['a', 'b', 'c'].map((customer) => queue.submit('client', { customer, n: 1 }));
    expect(await Promise.all(all)).toEqual(['a1', 'b1', 'c1']);
    expect(stored).toEqual(['a1', 'b1', 'c1']);
    expect(transactions).toEqual([['a1'], ['b1'], ['c1']]);
    expect(queue.stats.batchFailures).toBe(1);
  });

  it('keeps keys apart: one key busy does not hold another back', async () => {
    const { queue, transactions } = storeWith({ maxInFlight: 1 });
    await Promise.all([
      queue.submit('one', { customer: 'a', n: 1 }),
      queue.submit('two', { customer: 'a', n: 1 }),
    ]);
    // Two keys, two lanes: each item left at once, alone.
    expect(transactions).toEqual([['a1'], ['a1']]);
  });
});
