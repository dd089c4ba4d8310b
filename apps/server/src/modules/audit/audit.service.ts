import {
  type AuditLogEntry,
  type AuditLogPage,
  type AuditLogQuery,
  auditErrorMessages,
  auditLogEventMaxBytes,
  auditLogMaxRangeDays,
  auditLogPageSize,
  auditTypes,
  clientLogEvent,
  type PostAuditLogBody,
} from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest } from '../../platform/http/http-errors';
import { type AuditLogListRow, insertAuditLog, listAuditLogs, listAuditTypes } from './audit.repository';

const dayMs = 24 * 60 * 60 * 1000;
const defaultRangeDays = 7;
/** A download holds at most this many rows, so one request cannot hold the server. */
const downloadMaxRows = 50_000;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const present = (row: AuditLogListRow): AuditLogEntry => ({
  id: row.id,
  userId: row.userId,
  userName: row.userName,
  userEmail: row.userEmail,
  type: row.type,
  event: row.event,
  result: row.result,
  ip: row.ip,
  createdAt: row.createdAt.toISOString(),
});

/** The range of a read: the last 7 days unless given, never longer than 30 days. */
function rangeOf(query: Pick<AuditLogQuery, 'from' | 'to'>): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - defaultRangeDays * dayMs);
  if (from.getTime() > to.getTime()) throw badRequest(auditErrorMessages.rangeReversed);
  if (to.getTime() - from.getTime() > auditLogMaxRangeDays * dayMs)
    throw badRequest(auditErrorMessages.rangeTooLong);
  return { from, to };
}

/** A spreadsheet must never run a cell as a formula (CSV injection). */
function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** What the audit log records about one row the server writes itself. */
export interface AuditRecord {
  clientId: string;
  userId: string | null;
  type: string;
  event?: Record<string, unknown>;
  result?: string | null;
  ip?: string | null;
}

/**
 * The audit log (issue 14; core-inbox §7 logs, ticket service auditLogs): the server's own
 * records of sign-ins, user and role changes and refusals, plus the client's log posts.
 */
export class AuditService {
  constructor(private readonly db: Database) {}

  /** Writes one row the server decided to keep. */
  async record(entry: AuditRecord): Promise<void> {
    await withTenant(this.db, entry.clientId, (tx) =>
      insertAuditLog(tx, {
        clientId: entry.clientId,
        userId: entry.userId,
        type: entry.type,
        event: entry.event ?? {},
        result: entry.result ?? null,
        ip: entry.ip ?? null,
      }),
    );
  }

  /** Records a refused call (the platform's 403), with what was asked for. */
  recordRefusal(refusal: { auth: AuthContext; method: string; url: string; ip: string }): Promise<void> {
    return this.record({
      clientId: refusal.auth.clientId,
      userId: refusal.auth.userId,
      type: auditTypes.permissionDenied,
      event: { method: refusal.method, path: refusal.url.split('?')[0] },
      result: 'FORBIDDEN',
      ip: refusal.ip,
    });
  }

  /** The client's log post: the event must be JSON text with version and source. */
  async post(caller: AuthContext, body: PostAuditLogBody, ip: string | null): Promise<AuditLogEntry> {
    if (Buffer.byteLength(body.event) > auditLogEventMaxBytes)
      throw badRequest(auditErrorMessages.eventTooLarge);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.event);
    } catch {
      throw badRequest(auditErrorMessages.eventNotJson);
    }
    const event = clientLogEvent.safeParse(parsed);
    if (!event.success) {
      const issue = event.error.issues[0];
      throw badRequest(`event.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
    }
    const row = await withTenant(this.db, caller.clientId, (tx) =>
      insertAuditLog(tx, {
        clientId: caller.clientId,
        userId: caller.userId,
        type: body.type,
        event: event.data,
        result: body.result,
        ip,
      }),
    );
    return present({ ...row, userName: null, userEmail: caller.email });
  }

  /** One page of the client's rows, newest first. */
  async list(caller: AuthContext, query: AuditLogQuery): Promise<AuditLogPage> {
    const range = rangeOf(query);
    if (query.cursor && !uuidPattern.test(query.cursor)) throw badRequest(auditErrorMessages.badCursor);
    const rows = await withTenant(this.db, caller.clientId, (tx) =>
      listAuditLogs(tx, caller.clientId, {
        ...range,
        type: query.type || undefined,
        userId: query.userId,
        afterId: query.cursor,
        limit: auditLogPageSize + 1,
      }),
    );
    const page = rows.slice(0, auditLogPageSize);
    const more = rows.length > auditLogPageSize;
    return { content: page.map(present), nextCursor: more ? (page.at(-1)?.id ?? null) : null };
  }

  /** The types the client's log holds, for the filter. */
  types(caller: AuthContext): Promise<string[]> {
    return withTenant(this.db, caller.clientId, (tx) => listAuditTypes(tx, caller.clientId));
  }

  /** The range as CSV, UTF-8 with a byte-order mark so spreadsheets read it right. */
  async download(caller: AuthContext, query: AuditLogQuery): Promise<string> {
    const range = rangeOf(query);
    const rows = await withTenant(this.db, caller.clientId, (tx) =>
      listAuditLogs(tx, caller.clientId, {
        ...range,
        type: query.type || undefined,
        userId: query.userId,
        limit: downloadMaxRows,
      }),
    );
    const header = ['time', 'user', 'email', 'type', 'result', 'ip', 'event'];
    const lines = rows.map((row) =>
      [
        row.createdAt.toISOString(),
        row.userName,
        row.userEmail,
        row.type,
        row.result,
        row.ip,
        JSON.stringify(row.event),
      ]
        .map(csvCell)
        .join(','),
    );
    return `\uFEFF${[header.join(','), ...lines].join('\r\n')}\r\n`;
  }
}
