import {
  attachmentRefusal,
  inboxErrors,
  inboxLimits,
  type MessageView,
  type SendMessageBody,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import { readTogether } from '../../db/tenant-connections';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, forbidden, notFound } from '../../platform/http/http-errors';
import { findUser, userOfRow, userQuery } from '../identity/user.repository';
import type { AttachmentStore, StoredAttachment } from './attachment-store';
import { findRoom, roomOfRow, roomOfTicketQuery, touchRoom } from './chat-room.repository';
import { canSeeTicket, type InboxScope, inboxScopeOf } from './inbox.policy';
import {
  emitCountsChanged,
  emitMessageCreated,
  emitMessageDeleted,
  emitMessageUpdated,
  emitTicketEvent,
  emitTyping,
  requestDelivery,
} from './inbox.realtime';
import {
  clientMessageQuery,
  deleteMessage,
  findByClientMessageId,
  findMessage,
  insertMessage,
  messageOfRow,
  updateMessage,
} from './message.repository';
import { messageView } from './message-view';
import { type MessageRow, previewOf, type TicketRow } from './ticket.presenter';
import { applyOutboundMessage, ticketOfRow, ticketQuery } from './ticket.repository';
import { assertCanWork, isExpired, isOpen, visibleTicket } from './ticket-access';

/**
 * Agents' messages. A public message is stored PENDING and handed to the delivery job
 * through an event; an internal note is stored SENT and never leaves the inbox. The
 * sender's client message id makes a send idempotent, and retrying a failed one.
 */
export class OutboundMessageService {
  constructor(
    private readonly db: Database,
    private readonly attachments: AttachmentStore,
  ) {}

  /** POST chat/secure: `created` is false for a repeat of a message already sent. */
  async send(auth: AuthContext, body: SendMessageBody): Promise<{ message: MessageView; created: boolean }> {
    const scope = inboxScopeOf(auth);
    const senderRef = `user:${auth.userId}`;
    if (body.text.length > inboxLimits.messageTextMax) throw badRequest(inboxErrors.messageTooLong);
    const files = body.attachmentIds.length > 0 ? await this.resolveFiles(scope, senderRef, body) : [];

    return withTenant(this.db, auth.clientId, async (tx) => {
      // One round trip on PostgreSQL, run in this order: the ticket's lock first (it makes
      // concurrent sends to one chat, and a repeat of one, take turns), then what the send
      // needs to know. Nothing read is used before the ticket is found visible.
      const [ticketRows, repeatRows, senderRows, roomRows] = await readTogether(tx, [
        ticketQuery(auth.clientId, body.ticketId, { forUpdate: true }),
        clientMessageQuery(auth.clientId, senderRef, body.clientMessageId),
        userQuery(auth.clientId, auth.userId),
        roomOfTicketQuery(auth.clientId, body.ticketId),
      ]);
      const ticket = ticketRows[0] ? ticketOfRow(ticketRows[0]) : undefined;
      if (!ticket || !canSeeTicket(scope, ticket)) throw notFound();
      const repeat = repeatRows[0] ? messageOfRow(repeatRows[0]) : undefined;
      if (repeat) return { message: await this.retryIfFailed(tx, repeat, ticket), created: false };

      const isPublic = body.kind === 'PublicMessage';
      if (!body.text.trim() && files.length === 0) throw badRequest(inboxErrors.emptyMessage);
      if (!isOpen(ticket)) throw badRequest(inboxErrors.ticketClosed);
      if (isPublic && isExpired(ticket)) throw badRequest(inboxErrors.ticketExpired);
      if (!scope.canReply) throw forbidden(inboxErrors.cannotReply);
      for (const file of files) {
        const refusal = attachmentRefusal(ticket.channel, file);
        if (refusal === 'type') throw badRequest(inboxErrors.attachmentType);
        if (refusal === 'size') throw badRequest(inboxErrors.attachmentSize);
      }
      if (body.quotedMessageId !== undefined) {
        const quoted = await findMessage(tx, auth.clientId, body.quotedMessageId);
        if (!quoted || quoted.roomId !== ticket.roomId) throw badRequest(inboxErrors.quotedNotFound);
      }

      const sender = senderRows[0] ? userOfRow(senderRows[0]) : undefined;
      const now = new Date();
      const inserted = await insertMessage(tx, {
        clientId: auth.clientId,
        roomId: ticket.roomId,
        ticketId: ticket.id,
        channelAccountId: ticket.channelAccountId,
        kind: body.kind,
        direction: 'OUTBOUND',
        senderType: 'AGENT',
        senderId: auth.userId,
        senderName: sender?.name ?? auth.email,
        senderRef,
        text: body.text,
        attachments: files,
        quotedMessageId: body.quotedMessageId ?? null,
        status: isPublic ? 'PENDING' : 'SENT',
        clientMessageId: body.clientMessageId,
        createdAt: now,
        updatedAt: now,
      });
      if (!inserted) {
        const first = await findByClientMessageId(tx, auth.clientId, senderRef, body.clientMessageId);
        if (!first) throw new Error('sent message was neither stored nor found');
        return { message: await messageView(tx, this.attachments, first), created: false };
      }

      const room = roomRows[0] ? roomOfRow(roomRows[0]) : undefined;
      if (!room) throw notFound();
      let after = ticket;
      // Replying takes the chat: a public answer to the queue assigns it to the one who answered.
      const takes = isPublic && ticket.status === 'UNASSIGNED' && scope.canBeAssigned;
      if (isPublic) {
        after = await applyOutboundMessage(tx, auth.clientId, ticket.id, {
          preview: previewOf(body.text, files),
          at: now,
          assigneeId: takes ? auth.userId : undefined,
        });
        await touchRoom(tx, auth.clientId, room.id, { lastMessageAt: now }, { atCommit: true });
      }

      const message = await messageView(tx, this.attachments, inserted);
      await emitMessageCreated(tx, message, after, room.contactIdentityId, ticket);
      if (takes) {
        await emitTicketEvent(tx, 'updated', after, ticket);
        await emitCountsChanged(tx, auth.clientId, [auth.userId]);
      } else if (isPublic && ticket.unreadCount > 0) {
        await emitTicketEvent(tx, 'updated', after, ticket);
      }
      if (isPublic) await requestDelivery(tx, inserted);
      return { message, created: true };
    });
  }

  /**
   * DELETE chat/secure: an agent may take back their own internal note, or their own
   * message that failed to leave. Anything the customer may have seen stays.
   */
  async delete(auth: AuthContext, messageId: number): Promise<void> {
    const scope = inboxScopeOf(auth);
    await withTenant(this.db, auth.clientId, async (tx) => {
      const message = await findMessage(tx, auth.clientId, messageId);
      if (!message) throw notFound();
      const ticket = await visibleTicket(tx, scope, message.ticketId);
      const own = message.senderRef === `user:${auth.userId}`;
      if (!own || (message.kind !== 'InternalMessage' && message.status !== 'FAILED'))
        throw forbidden(inboxErrors.cannotDeleteMessage);
      const room = await findRoom(tx, auth.clientId, message.roomId);
      await deleteMessage(tx, auth.clientId, message.id);
      if (room) await emitMessageDeleted(tx, message, ticket, room.contactIdentityId);
    });
  }

  /** The agent is typing: the others with the chat open, and the customer's widget, hear it. */
  async agentTyping(auth: AuthContext, ticketId: number, typing: boolean): Promise<void> {
    const scope = inboxScopeOf(auth);
    await withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, ticketId);
      assertCanWork(scope);
      if (!isOpen(ticket)) return;
      const [sender, room] = [
        await findUser(tx, auth.clientId, auth.userId),
        await findRoom(tx, auth.clientId, ticket.roomId),
      ];
      await emitTyping(tx, ticket, {
        who: 'AGENT',
        name: sender?.name ?? auth.email,
        typing,
        contactIdentityId: room?.contactIdentityId,
      });
    });
  }

  /** The ticket must be visible before anything is said about the files. */
  private async resolveFiles(
    scope: InboxScope,
    senderRef: string,
    body: SendMessageBody,
  ): Promise<StoredAttachment[]> {
    await withTenant(this.db, scope.clientId, (tx) => visibleTicket(tx, scope, body.ticketId));
    return this.attachments.resolve(scope.clientId, senderRef, body.attachmentIds);
  }

  /**
   * A repeat of a send. A FAILED public message goes back to PENDING and to the delivery
   * job: the composer's retry. A chat closed or expired since then refuses like a new send.
   */
  private async retryIfFailed(tx: Executor, first: MessageRow, ticket: TicketRow): Promise<MessageView> {
    if (first.status === 'FAILED' && first.kind === 'PublicMessage' && first.ticketId === ticket.id) {
      if (!isOpen(ticket)) throw badRequest(inboxErrors.ticketClosed);
      if (isExpired(ticket)) throw badRequest(inboxErrors.ticketExpired);
      const queued = await updateMessage(
        tx,
        first.clientId,
        first.id,
        { status: 'PENDING', failureReason: null },
        { onlyFrom: ['FAILED'] },
      );
      if (queued) {
        const room = await findRoom(tx, first.clientId, first.roomId);
        if (room) await emitMessageUpdated(tx, queued, ticket, room.contactIdentityId);
        await requestDelivery(tx, queued);
        return messageView(tx, this.attachments, queued);
      }
    }
    return messageView(tx, this.attachments, first);
  }
}
