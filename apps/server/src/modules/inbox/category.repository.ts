import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { ticketCategories } from '../../db/schema';

export type CategoryRow = typeof ticketCategories.$inferSelect;

const live = (clientId: string) =>
  and(eq(ticketCategories.clientId, clientId), isNull(ticketCategories.deletedAt));

/** The client's live categories by name. */
export async function listCategories(db: Executor, clientId: string): Promise<CategoryRow[]> {
  return db
    .select()
    .from(ticketCategories)
    .where(live(clientId))
    .orderBy(asc(sql`lower(${ticketCategories.name})`));
}

/** A category of the client that has not been deleted. */
export async function findCategory(
  db: Executor,
  clientId: string,
  categoryId: string,
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(ticketCategories)
    .where(and(live(clientId), eq(ticketCategories.id, categoryId)));
  return row;
}

/** Inserts the category; undefined when a live one of the client has the same name. */
export async function insertCategory(
  db: Executor,
  clientId: string,
  values: { name: string; description: string | null },
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .insert(ticketCategories)
    .values({ clientId, ...values })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Whether another live category of the client has the name (ignoring case). */
export async function nameTaken(
  db: Executor,
  clientId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: ticketCategories.id })
    .from(ticketCategories)
    .where(
      and(
        live(clientId),
        sql`lower(${ticketCategories.name}) = ${name.toLowerCase()}`,
        exceptId ? sql`${ticketCategories.id} <> ${exceptId}` : undefined,
      ),
    );
  return row !== undefined;
}

/** Renames a live category; undefined when there is none with that id in the client. */
export async function updateCategory(
  db: Executor,
  clientId: string,
  categoryId: string,
  values: { name: string; description: string | null },
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .update(ticketCategories)
    .set(values)
    .where(and(live(clientId), eq(ticketCategories.id, categoryId)))
    .returning();
  return row;
}

/** Soft delete: tickets keep pointing at the category they were given. */
export async function deleteCategory(db: Executor, clientId: string, categoryId: string): Promise<boolean> {
  const rows = await db
    .update(ticketCategories)
    .set({ deletedAt: new Date() })
    .where(and(live(clientId), eq(ticketCategories.id, categoryId)))
    .returning({ id: ticketCategories.id });
  return rows.length > 0;
}
