import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { inboxConfigurations } from '../../db/schema';

export type ConfigurationRow = typeof inboxConfigurations.$inferSelect;
export type ConfigurationChanges = Partial<Omit<ConfigurationRow, 'clientId' | 'updatedAt'>>;

/** The client's row, or undefined when it never saved one (every switch then reads 0). */
export async function findConfiguration(
  db: Executor,
  clientId: string,
): Promise<ConfigurationRow | undefined> {
  const [row] = await db.select().from(inboxConfigurations).where(eq(inboxConfigurations.clientId, clientId));
  return row;
}

/** Creates the row on first save; later saves change only the switches given. */
export async function saveConfiguration(
  db: Executor,
  clientId: string,
  changes: ConfigurationChanges,
): Promise<ConfigurationRow> {
  const [row] = await db
    .insert(inboxConfigurations)
    .values({ clientId, ...changes })
    .onConflictDoUpdate({
      target: inboxConfigurations.clientId,
      set: { ...changes, updatedAt: new Date() },
    })
    .returning();
  return row;
}
