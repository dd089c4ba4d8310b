import type { MailboxListResponse } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { listClientMail, type MailRow } from '../../platform/mail/mail-outbox';

const present = (row: MailRow) => ({
  id: row.id,
  channel: row.channel,
  recipient: row.recipient,
  subject: row.subject,
  text: row.text,
  status: row.status,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
});

/** The local mailbox: what the caller's client was sent, so flows work with no provider. */
export class MailOutboxService {
  constructor(private readonly db: Database) {}

  async list(caller: AuthContext, page: { limit: number; offset: number }): Promise<MailboxListResponse> {
    const { rows, total } = await withTenant(this.db, caller.clientId, (tx) =>
      listClientMail(tx, caller.clientId, page),
    );
    return { content: rows.map(present), total };
  }
}
