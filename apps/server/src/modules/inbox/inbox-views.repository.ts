import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { inboxPreferences } from '../../db/schema';

/** The user's saved column set of the ticket list, or null when they never saved one. */
export async function findTicketColumns(
  tx: Executor,
  clientId: string,
  userId: string,
): Promise<string[] | null> {
  const [row] = await tx
    .select({ columns: inboxPreferences.ticketColumns })
    .from(inboxPreferences)
    .where(and(eq(inboxPreferences.clientId, clientId), eq(inboxPreferences.userId, userId)));
  return row?.columns ?? null;
}

/** Saves the user's column set; a user has one row of preferences. */
export async function saveTicketColumns(
  tx: Executor,
  clientId: string,
  userId: string,
  columns: string[],
): Promise<void> {
  await tx
    .insert(inboxPreferences)
    .values({ clientId, userId, ticketColumns: columns })
    .onConflictDoUpdate({
      target: inboxPreferences.userId,
      set: { ticketColumns: columns, updatedAt: new Date() },
      // The row is the user's own, so it already belongs to this client; the check keeps it so.
      setWhere: eq(inboxPreferences.clientId, clientId),
    });
}
