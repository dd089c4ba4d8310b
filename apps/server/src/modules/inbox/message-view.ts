import type { MessageView } from '@app/contracts';
import type { Executor } from '../../db/client';
import type { AttachmentStore } from './attachment-store';
import { findQuoted } from './message.repository';
import { type MessageRow, presentMessage } from './ticket.presenter';

/**
 * Messages as screens see them: attachment links made fresh by the store, and the quoted
 * message's text and sender read alongside (one query for the whole page).
 */
export async function messageViews(
  tx: Executor,
  attachments: AttachmentStore,
  clientId: string,
  rows: ReadonlyArray<MessageRow>,
): Promise<MessageView[]> {
  const quotedIds = [...new Set(rows.flatMap((row) => (row.quotedMessageId ? [row.quotedMessageId] : [])))];
  const quoted = await findQuoted(tx, clientId, quotedIds);
  return rows.map((row) =>
    presentMessage(row, {
      linkOf: (attachment) => attachments.linkOf(clientId, attachment),
      quoted: row.quotedMessageId ? (quoted.get(row.quotedMessageId) ?? null) : null,
    }),
  );
}

/** One message as screens see it. */
export async function messageView(
  tx: Executor,
  attachments: AttachmentStore,
  row: MessageRow,
): Promise<MessageView> {
  const [view] = await messageViews(tx, attachments, row.clientId, [row]);
  return view;
}
