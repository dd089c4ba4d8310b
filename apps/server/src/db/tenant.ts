import { sql } from 'drizzle-orm';
import type { Database, Transaction } from './client';
import { plannerSetup, type TenantConnections, tenantConnectionsOf } from './tenant-connections';

export { plannerSetup } from './tenant-connections';

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
  const connections = carryingConnectionsFor(db, clientId);
  if (connections) return connections.transaction(clientId, work);
  return db.transaction(async (tx) => {
    // One round trip: `role` is a setting too, so set_config(..., true) is SET LOCAL ROLE.
    await tx.execute(
      sql`select set_config('app.client_id', ${clientId}, true), set_config('role', 'app_tenant', true), ${sql.raw(plannerSetup)}`,
    );
    return work(tx);
  });
}

/**
 * Reads in one client, as withTenant, but each statement runs in its own read-only
 * transaction with the tenant set up in the same message: a one-statement read costs one
 * round trip. For reads only (a write fails); statements do not share a snapshot.
 */
export async function readInTenant<T>(
  db: Database,
  clientId: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const connections = carryingConnectionsFor(db, clientId);
  if (connections) return connections.read(clientId, work);
  return withTenant(db, clientId, work);
}

/**
 * On PostgreSQL the setup travels with a statement; an id that is not a uuid takes Drizzle's
 * own transaction, where PostgreSQL refuses it as before.
 */
function carryingConnectionsFor(db: Database, clientId: string): TenantConnections | undefined {
  return uuidPattern.test(clientId) ? tenantConnectionsOf(db) : undefined;
}
