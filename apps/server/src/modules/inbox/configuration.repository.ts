import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { inboxConfigurations } from '../../db/schema';

export type ConfigurationRow = typeof inboxConfigurations.$inferSelect;
export type ConfigurationChanges = Partial<Omit<ConfigurationRow, 'clientId' | 'updatedAt'>>;

/**
 * The switches a client starts with, before it saves any: emoji, attachments and the agent's
 * name shown in the chat room, nothing else. A client has no row until its first save.
 */
export const startingSwitches = {
  isDisplayChatroomEmoji: 1,
  isDisplayChatroomAttachment: 1,
  isDisplayChatroomCsName: 1,
} satisfies ConfigurationChanges;

/** The client's row, or undefined when it never saved one (it then reads `startingSwitches`). */
export async function findConfiguration(
  db: Executor,
  clientId: string,
): Promise<ConfigurationRow | undefined> {
  const [row] = await db.select().from(inboxConfigurations).where(eq(inboxConfigurations.clientId, clientId));
  return row;
}

/** Creates the row on first save (from `startingSwitches`); later saves change only the switches given. */
export async function saveConfiguration(
  db: Executor,
  clientId: string,
  changes: ConfigurationChanges,
): Promise<ConfigurationRow> {
  const [row] = await db
    .insert(inboxConfigurations)
    .values({ clientId, ...startingSwitches, ...definedOf(changes) })
    .onConflictDoUpdate({
      target: inboxConfigurations.clientId,
      set: { ...changes, updatedAt: new Date() },
    })
    .returning();
  return row;
}

/** Switches left out of a save keep their value (undefined is not a change). */
function definedOf(changes: ConfigurationChanges): ConfigurationChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}
