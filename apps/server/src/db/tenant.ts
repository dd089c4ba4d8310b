import { sql } from 'drizzle-orm';
import { batchedTransactionOf, type Database, type Transaction } from './client';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const batched = batchedTransactionOf(db);
  // On PostgreSQL `begin` carries the setup in one round trip. That statement has no
  // parameters, so only an id of strict uuid shape is written into it; anything else takes
  // the parameterised path below.
  if (batched && uuidPattern.test(clientId)) {
    return batched(
      `select set_config('app.client_id', '${clientId}', true), set_config('role', 'app_tenant', true)`,
      work,
    );
  }
  return db.transaction(async (tx) => {
    // One round trip: `role` is a setting too, so set_config(..., true) is SET LOCAL ROLE.
    await tx.execute(
      sql`select set_config('app.client_id', ${clientId}, true), set_config('role', 'app_tenant', true)`,
    );
    return work(tx);
  });
}
