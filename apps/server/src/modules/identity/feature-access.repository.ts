import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { featureAccessGroups, users } from '../../db/schema';

export type FeatureAccessGroupRow = typeof featureAccessGroups.$inferSelect;

/** The client's groups, live or deleted, oldest first. */
export async function listFeatureAccessGroups(
  db: Executor,
  clientId: string,
  deleted: boolean,
): Promise<FeatureAccessGroupRow[]> {
  return db
    .select()
    .from(featureAccessGroups)
    .where(
      and(
        eq(featureAccessGroups.clientId, clientId),
        deleted ? isNotNull(featureAccessGroups.deletedAt) : isNull(featureAccessGroups.deletedAt),
      ),
    )
    .orderBy(asc(featureAccessGroups.createdAt), asc(featureAccessGroups.id));
}

/** A live group by name, compared without case (names are unique that way). */
export async function findFeatureAccessGroupByName(
  db: Executor,
  clientId: string,
  name: string,
): Promise<FeatureAccessGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(featureAccessGroups)
    .where(
      and(
        eq(featureAccessGroups.clientId, clientId),
        isNull(featureAccessGroups.deletedAt),
        sql`lower(${featureAccessGroups.name}) = ${name.trim().toLowerCase()}`,
      ),
    );
  return row;
}

export async function findFeatureAccessGroup(
  db: Executor,
  clientId: string,
  id: string,
): Promise<FeatureAccessGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(featureAccessGroups)
    .where(
      and(
        eq(featureAccessGroups.clientId, clientId),
        eq(featureAccessGroups.id, id),
        isNull(featureAccessGroups.deletedAt),
      ),
    );
  return row;
}

export async function insertFeatureAccessGroup(
  db: Executor,
  values: Pick<FeatureAccessGroupRow, 'clientId' | 'name' | 'permissionIndex' | 'featuresPermissions'>,
): Promise<FeatureAccessGroupRow> {
  const [row] = await db.insert(featureAccessGroups).values(values).returning();
  return row;
}

export async function updateFeatureAccessGroup(
  db: Executor,
  clientId: string,
  id: string,
  changes: Partial<
    Pick<FeatureAccessGroupRow, 'name' | 'permissionIndex' | 'featuresPermissions' | 'deletedAt'>
  >,
): Promise<FeatureAccessGroupRow | undefined> {
  const [row] = await db
    .update(featureAccessGroups)
    .set(changes)
    .where(and(eq(featureAccessGroups.clientId, clientId), eq(featureAccessGroups.id, id)))
    .returning();
  return row;
}

/** How many users of the client (deleted ones aside) carry each group name, by lower-cased name. */
export async function countUsersByGroupName(db: Executor, clientId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ name: sql<string>`lower(${users.featuresAccessName})`, total: count() })
    .from(users)
    .where(and(eq(users.clientId, clientId), isNull(users.deletedAt), isNotNull(users.featuresAccessName)))
    .groupBy(sql`lower(${users.featuresAccessName})`);
  return new Map(rows.map((row) => [row.name, row.total]));
}

/**
 * Copies a group's name and rights onto every user carrying `previousName`: users hold the
 * group by name, so a rename or a rights change must reach them. Returns their ids.
 */
export async function applyGroupToUsers(
  db: Executor,
  clientId: string,
  previousName: string,
  group: Pick<FeatureAccessGroupRow, 'name' | 'permissionIndex' | 'featuresPermissions'>,
): Promise<string[]> {
  const rows = await db
    .update(users)
    .set({
      featuresAccessName: group.name,
      permissionIndex: group.permissionIndex,
      featuresPermissions: group.featuresPermissions,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(users.clientId, clientId),
        isNull(users.deletedAt),
        sql`lower(${users.featuresAccessName}) = ${previousName.trim().toLowerCase()}`,
      ),
    )
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}
