import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditLogs, users } from '../../db/schema';

export type AuditLogRow = typeof auditLogs.$inferSelect;
/** A row with the name and e-mail of its user, when it has one. */
export type AuditLogListRow = AuditLogRow & { userName: string | null; userEmail: string | null };

export async function insertAuditLog(
  db: Executor,
  values: {
    clientId: string;
    userId: string | null;
    type: string;
    event: Record<string, unknown>;
    result: string | null;
    ip: string | null;
  },
): Promise<AuditLogRow> {
  const [row] = await db.insert(auditLogs).values(values).returning();
  return row;
}

/**
 * One client's rows in [from, to], newest first, keyset-paged so a deep page costs what the
 * first one does (the index is client_id, created_at desc).
 */
export async function listAuditLogs(
  db: Executor,
  clientId: string,
  filter: { from: Date; to: Date; type?: string; userId?: string; afterId?: string; limit: number },
): Promise<AuditLogListRow[]> {
  const rows = await db
    .select({ log: auditLogs, userName: users.name, userEmail: users.email })
    .from(auditLogs)
    .leftJoin(users, and(eq(users.id, auditLogs.userId), eq(users.clientId, auditLogs.clientId)))
    .where(
      and(
        eq(auditLogs.clientId, clientId),
        gte(auditLogs.createdAt, filter.from),
        lte(auditLogs.createdAt, filter.to),
        filter.type ? eq(auditLogs.type, filter.type) : undefined,
        filter.userId ? eq(auditLogs.userId, filter.userId) : undefined,
        // The key is read back from the row itself: its microseconds would not survive a Date.
        filter.afterId
          ? sql`(${auditLogs.createdAt}, ${auditLogs.id}) < (select k.created_at, k.id from audit_logs k
              where k.client_id = ${clientId} and k.id = ${filter.afterId})`
          : undefined,
      ),
    )
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(filter.limit);
  return rows.map((row) => ({ ...row.log, userName: row.userName, userEmail: row.userEmail }));
}

/** The distinct types the client has, for the screen's filter. */
export async function listAuditTypes(db: Executor, clientId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ type: auditLogs.type })
    .from(auditLogs)
    .where(eq(auditLogs.clientId, clientId))
    .orderBy(sql`1`);
  return rows.map((row) => row.type);
}
