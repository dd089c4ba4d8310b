import {
  inboxTopics,
  type MessageView,
  messageDeletedPayload,
  messageEventPayload,
  messageUpdatedPayload,
  ticketEventPayload,
  typingPayload,
  type VisitorServerFrame,
} from '@app/contracts';
import type { z } from 'zod';
import type { DeliveredEvent } from '../../platform/events/event-bus';
import { presentAttachment } from '../inbox/ticket.presenter';
import type { VisitorMessageRow } from './visitor.repository';

type MessageFrame = Extract<VisitorServerFrame, { type: 'message' }>;

/**
 * A public message as the widget shows it: the customer's own messages are the visitor's
 * (with their client id, so a resume or another tab can match them), everything else
 * (agents, the system) comes from the business.
 */
export function messageFrameOfView(message: MessageView): MessageFrame {
  const fromVisitor = message.sender.type === 'CUSTOMER';
  return {
    type: 'message',
    serverId: message.id,
    id: fromVisitor ? message.clientMessageId : null,
    from: fromVisitor ? 'visitor' : 'agent',
    body: message.text,
    attachments: message.attachments,
    agentName: fromVisitor ? null : message.sender.name,
    ts: message.createdAt,
  };
}

/** The same frame from a stored row (a resume reads rows, live events carry views). */
export function messageFrameOfRow(
  row: VisitorMessageRow,
  linkOf: (attachment: { id: string; url?: string }) => string,
): MessageFrame {
  const fromVisitor = row.senderType === 'CUSTOMER';
  return {
    type: 'message',
    serverId: row.id,
    id: fromVisitor ? row.clientMessageId : null,
    from: fromVisitor ? 'visitor' : 'agent',
    body: row.text,
    attachments: row.attachments.map((attachment) => presentAttachment(attachment, linkOf)),
    agentName: fromVisitor ? null : row.senderName,
    ts: row.createdAt.toISOString(),
  };
}

/** An inbox event reduced to what the visitor side acts on; null for everything else. */
export type VisitorEvent =
  | { kind: 'message'; frame: MessageFrame; roomId: string; ticket: TicketFacts }
  | { kind: 'updated'; serverId: number; status: z.infer<typeof messageUpdatedPayload>['status'] }
  | { kind: 'deleted'; serverId: number }
  | { kind: 'typing'; typing: boolean; name: string }
  | { kind: 'ticket'; roomId: string; ticket: TicketFacts; previousAssigneeId: string | null };

/** What the visitor side needs of a ticket: who has it, and whether the agents read it all. */
export interface TicketFacts {
  assigneeId: string | null;
  unreadCount: number;
}

/**
 * Reads an event of the inbox. Payloads are parsed with their contracts, so a change on
 * the inbox side shows up here as a dropped event rather than a broken frame; internal
 * notes are dropped even if one ever reached a visitor's room.
 */
export function visitorEventOf(event: DeliveredEvent): VisitorEvent | null {
  switch (event.topic) {
    case inboxTopics.messageCreated: {
      const parsed = messageEventPayload.safeParse(event.payload);
      if (!parsed.success || parsed.data.message.kind !== 'PublicMessage') return null;
      const { message, ticket } = parsed.data;
      return { kind: 'message', frame: messageFrameOfView(message), roomId: message.roomId, ticket };
    }
    case inboxTopics.messageUpdated: {
      const parsed = messageUpdatedPayload.safeParse(event.payload);
      return parsed.success
        ? { kind: 'updated', serverId: parsed.data.id, status: parsed.data.status }
        : null;
    }
    case inboxTopics.messageDeleted: {
      const parsed = messageDeletedPayload.safeParse(event.payload);
      return parsed.success ? { kind: 'deleted', serverId: parsed.data.id } : null;
    }
    case inboxTopics.typing: {
      const parsed = typingPayload.safeParse(event.payload);
      if (!parsed.success || parsed.data.who !== 'AGENT') return null;
      return { kind: 'typing', typing: parsed.data.typing, name: parsed.data.name };
    }
    case inboxTopics.ticketCreated:
    case inboxTopics.ticketUpdated: {
      const parsed = ticketEventPayload.safeParse(event.payload);
      if (!parsed.success) return null;
      const { ticket, previousAssigneeId } = parsed.data;
      return { kind: 'ticket', roomId: ticket.roomId, ticket, previousAssigneeId };
    }
    default:
      return null;
  }
}
