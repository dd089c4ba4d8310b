import type { AttachmentView, MessageView, TicketSummary } from '@app/contracts';
import { attachmentCategoryOf } from '@app/contracts';
import type { messages, tickets } from '../../db/schema';

export type TicketRow = typeof tickets.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** A ticket as the list, the sockets and every inbox screen see it. */
export function presentTicket(row: TicketRow, now = new Date()): TicketSummary {
  const open = row.status === 'UNASSIGNED' || row.status === 'ASSIGNED';
  return {
    id: row.id,
    roomId: row.roomId,
    channelAccountId: row.channelAccountId,
    mediaPlatform: row.channel,
    customer: {
      contactId: row.contactId,
      name: row.customerName,
      phone: row.customerPhone,
      email: row.customerEmail,
    },
    status: row.status,
    expired: open && row.expiresAt !== null && row.expiresAt <= now,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    priority: row.priority as 1 | 2 | 3,
    tags: row.tags,
    categoryId: row.categoryId,
    remarks: row.remarks,
    subject: row.subject,
    groupId: row.groupId,
    assigneeId: row.assigneeId,
    submitterId: row.submitterId,
    closedBy: row.closedBy,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    lastMessageAt: row.lastMessageAt.toISOString(),
    lastMessagePreview: row.lastMessagePreview,
    unreadCount: row.unreadCount,
  };
}

/**
 * A message as screens see it. Attachment links are made by `linkOf` (signed links for
 * our own files), so a stored row never holds a link that could go stale.
 */
export function presentMessage(
  row: MessageRow,
  options: {
    linkOf: (attachment: { id: string; url?: string }) => string;
    quoted?: { id: number; text: string; senderName: string } | null;
  },
): MessageView {
  return {
    id: row.id,
    roomId: row.roomId,
    ticketId: row.ticketId,
    kind: row.kind,
    direction: row.direction,
    sender: { type: row.senderType, id: row.senderId, name: row.senderName },
    text: row.text,
    attachments: row.attachments.map((attachment) => presentAttachment(attachment, options.linkOf)),
    quoted: options.quoted ?? null,
    status: row.status,
    failureReason: row.failureReason,
    clientMessageId: row.clientMessageId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A stored attachment as screens see it, its link made by `linkOf`. */
export function presentAttachment(
  attachment: MessageRow['attachments'][number],
  linkOf: (attachment: { id: string; url?: string }) => string,
): AttachmentView {
  return {
    id: attachment.id,
    name: attachment.name,
    mime: attachment.mime,
    size: attachment.size,
    type: attachmentCategoryOf(attachment.mime),
    url: linkOf(attachment),
  };
}

/** The one-line preview of a message for the list. */
export function previewOf(text: string, attachments: ReadonlyArray<{ name: string }>): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line) return line.slice(0, 140);
  return attachments.length > 0 ? `📎 ${attachments[0].name}` : '';
}
