import type { Executor } from '../../db/client';
import { pageVisits } from '../../db/schema';

/** A page visit as the tracker stores it. */
export type PageVisitRow = typeof pageVisits.$inferSelect;

/** Stores one page visit of a client; run inside `withTenant` so row security checks it. */
export async function insertPageVisit(
  db: Executor,
  values: {
    clientId: string;
    userId: string | null;
    pageName: string;
    data1: string | null;
    data2: string | null;
    data3: string | null;
    data4: string | null;
    data5: string | null;
  },
): Promise<void> {
  await db.insert(pageVisits).values(values);
}
