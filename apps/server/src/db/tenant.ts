import { sql } from 'drizzle-orm';
import type { Database, Transaction } from './client';

/**
 * Runs work inside a transaction bound to one client: the role drops to app_tenant so
 * row-level security applies, and app.client_id names the tenant. Repositories still
 * filter by client_id; this is the second wall.
 */
export async function withTenant<T>(
  db: Database,
  clientId: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // One round trip: `role` is a setting too, so set_config(..., true) is SET LOCAL ROLE.
    await tx.execute(
      sql`select set_config('app.client_id', ${clientId}, true), set_config('role', 'app_tenant', true)`,
    );
    return work(tx);
  });
}
