import {
  channels,
  chatExpiryMs,
  inboxErrors,
  inboxLimits,
  type StartTicketBody,
  type TicketPriority,
  type TicketSummary,
} from '@app/contracts';
import type { Database, Executor } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/http/http-errors';
import { findContact } from '../contacts/contact.repository';
import { findAssignableUser } from '../identity/user.repository';
import { findGroup } from './agent-group.repository';
import { findCategory } from './category.repository';
import { findRoomWithExternalId, lockCustomer, touchRoom } from './chat-room.repository';
import { canSeeTicket, inboxScopeOf } from './inbox.policy';
import { emitCountsChanged, emitTicketEvent } from './inbox.realtime';
import { presentTicket, type TicketRow } from './ticket.presenter';
import {
  findLatestTicketOfRoom,
  findOpenTicketOfRoom,
  insertOpenTicket,
  lockOtherOpenTickets,
  type TicketChanges,
  updateTicket,
} from './ticket.repository';
import { assertCanWork, isExpired, isOpen, visibleTicket } from './ticket-access';

/** Fields of a ticket an agent edits (PUT tickets, chatRoom/priority, chatRoom/category). */
export interface TicketEdit {
  subject?: string | null;
  priority?: TicketPriority;
  categoryId?: string | null;
  tags?: string[];
  addTags?: string[];
  removeTags?: string[];
}

/** Channels whose chats past 24 hours may only be resolved (commerce, "Chat"). */
const resolveOnlyWhenExpired = new Set(['MSG', 'IGM', 'TLG']);

/**
 * Ticket actions. Each locks the ticket, checks who may act, writes, and announces the
 * change to the rooms that saw the ticket before and see it after; a change of state or
 * assignee also announces the new tab counts.
 */
export class TicketService {
  constructor(private readonly db: Database) {}

  /** A new chat in a contact's existing room, taken by the caller (POST chatRoom / tickets). */
  async start(auth: AuthContext, body: StartTicketBody): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    if (!scope.canReply || !scope.canBeAssigned) throw forbidden(inboxErrors.cannotReply);
    return withTenant(this.db, auth.clientId, async (tx) => {
      const found = await findRoomWithExternalId(tx, auth.clientId, body.roomId);
      if (!found) throw notFound();
      const { room } = found;
      await lockCustomer(tx, room.channelAccountId, found.externalId);
      if (await findOpenTicketOfRoom(tx, auth.clientId, room.id))
        throw new HttpError(409, inboxErrors.roomHasOpenChat);
      if (body.categoryId) await this.assertCategory(tx, auth.clientId, body.categoryId);
      const contact = await findContact(tx, auth.clientId, room.contactId);
      if (!contact) throw notFound();
      // The channel's 24-hour window still runs from the customer's last message.
      const latest = await findLatestTicketOfRoom(tx, auth.clientId, room.id);
      const lastCustomerMessageAt = latest?.lastCustomerMessageAt ?? null;
      const expiresAt =
        channels[room.channel].hasExpiryDate && lastCustomerMessageAt
          ? new Date(lastCustomerMessageAt.getTime() + chatExpiryMs)
          : null;
      const ticket = await insertOpenTicket(tx, {
        clientId: auth.clientId,
        roomId: room.id,
        contactId: contact.id,
        channelAccountId: room.channelAccountId,
        channel: room.channel,
        status: 'ASSIGNED',
        assigneeId: auth.userId,
        createdBy: auth.userId,
        submitterId: auth.userId,
        customerName: contact.name,
        customerPhone: contact.phone,
        customerEmail: contact.email,
        subject: body.subject ?? null,
        priority: body.priority ?? 3,
        categoryId: body.categoryId ?? null,
        tags: uniqueTags(body.tags ?? []),
        lastCustomerMessageAt,
        expiresAt,
      });
      if (!ticket) throw new HttpError(409, inboxErrors.roomHasOpenChat);
      await touchRoom(tx, auth.clientId, room.id, { currentTicketId: ticket.id });
      await emitTicketEvent(tx, 'created', ticket);
      await emitCountsChanged(tx, auth.clientId, [auth.userId]);
      return presentTicket(ticket);
    });
  }

  /**
   * Close or resolve with a remark. With `includeOtherActive` the contact's other open
   * chats the caller can see close too, with the same remark.
   */
  async changeStatus(
    auth: AuthContext,
    body: { ticketId: number; status: 'CLOSED' | 'RESOLVED'; remarks: string; includeOtherActive: boolean },
  ): Promise<{ ticket: TicketSummary; closedTicketIds: number[] }> {
    const scope = inboxScopeOf(auth);
    const remarks = body.remarks.trim();
    return withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, body.ticketId, { forUpdate: true });
      assertCanWork(scope);
      if (!remarks) throw badRequest(inboxErrors.remarkRequired);
      if (!isOpen(ticket)) throw badRequest(inboxErrors.ticketClosed);
      const others = body.includeOtherActive
        ? (await lockOtherOpenTickets(tx, auth.clientId, ticket.contactId, ticket.id)).filter((other) =>
            canSeeTicket(scope, other),
          )
        : [];
      if (body.status === 'CLOSED') {
        const resolveOnly = [ticket, ...others].find(
          (each) => resolveOnlyWhenExpired.has(each.channel) && isExpired(each),
        );
        if (resolveOnly) throw badRequest(inboxErrors.onlyResolve);
      }
      const closing = { status: body.status, remarks, closedBy: auth.userId, closedAt: new Date() };
      const closed = await this.apply(tx, ticket, closing);
      for (const other of others) await this.apply(tx, other, closing);
      await emitCountsChanged(
        tx,
        auth.clientId,
        [ticket, ...others].map((each) => each.assigneeId),
      );
      return { ticket: presentTicket(closed), closedTicketIds: others.map((other) => other.id) };
    });
  }

  /**
   * Assign to an agent, to a group, or back to the queue (assigneeId null). A group alone
   * puts the chat in that group's queue; an agent must be assignable in the client.
   */
  async transfer(
    auth: AuthContext,
    body: { ticketId: number; assigneeId?: string | null; groupId?: string | null },
  ): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    return withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, body.ticketId, { forUpdate: true });
      assertCanWork(scope);
      if (!isOpen(ticket)) throw badRequest(inboxErrors.ticketClosed);
      const changes: TicketChanges = {};
      if (body.groupId !== undefined) {
        if (body.groupId && !(await findGroup(tx, auth.clientId, body.groupId)))
          throw badRequest(inboxErrors.groupNotFound);
        changes.groupId = body.groupId;
      }
      const assigneeId = body.assigneeId !== undefined ? body.assigneeId : body.groupId ? null : undefined;
      if (assigneeId !== undefined) {
        if (assigneeId && !(await findAssignableUser(tx, auth.clientId, assigneeId)))
          throw badRequest(inboxErrors.agentNotAssignable);
        changes.assigneeId = assigneeId;
        changes.status = assigneeId ? 'ASSIGNED' : 'UNASSIGNED';
      }
      const after = await this.apply(tx, ticket, changes);
      if (after.assigneeId !== ticket.assigneeId)
        await emitCountsChanged(tx, auth.clientId, [ticket.assigneeId, after.assigneeId]);
      return presentTicket(after);
    });
  }

  /** Subject, priority, category and tags (set, or add and remove). */
  async edit(auth: AuthContext, ticketId: number, edit: TicketEdit): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    return withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, ticketId, { forUpdate: true });
      assertCanWork(scope);
      const changes: TicketChanges = {};
      if (edit.subject !== undefined) changes.subject = edit.subject?.trim() || null;
      if (edit.priority !== undefined) changes.priority = edit.priority;
      if (edit.categoryId !== undefined) {
        if (edit.categoryId) await this.assertCategory(tx, auth.clientId, edit.categoryId);
        changes.categoryId = edit.categoryId;
      }
      if (edit.tags || edit.addTags || edit.removeTags) {
        const removed = new Set((edit.removeTags ?? []).map((tag) => tag.trim().toLowerCase()));
        const tags = uniqueTags([...(edit.tags ?? ticket.tags), ...(edit.addTags ?? [])]).filter(
          (tag) => !removed.has(tag.toLowerCase()),
        );
        if (tags.length > inboxLimits.tagsPerTicket) throw badRequest(inboxErrors.tooManyTags);
        changes.tags = tags;
      }
      return presentTicket(await this.apply(tx, ticket, changes));
    });
  }

  /** DELETE chatRoom?forceClose=true: a manager ends a chat without a remark. */
  async forceClose(auth: AuthContext, ticketId: number): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    return withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, ticketId, { forUpdate: true });
      if (!scope.canManage) throw forbidden(inboxErrors.managersOnly);
      if (!isOpen(ticket)) throw badRequest(inboxErrors.ticketClosed);
      const closed = await this.apply(tx, ticket, {
        status: 'CLOSED',
        closedBy: auth.userId,
        closedAt: new Date(),
      });
      await emitCountsChanged(tx, auth.clientId, [ticket.assigneeId]);
      return presentTicket(closed);
    });
  }

  /** The agent has read the chat: its unread count goes back to zero. */
  async markRead(auth: AuthContext, ticketId: number): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    return withTenant(this.db, auth.clientId, async (tx) => {
      const ticket = await visibleTicket(tx, scope, ticketId, { forUpdate: true });
      if (ticket.unreadCount === 0) return presentTicket(ticket);
      return presentTicket(await this.apply(tx, ticket, { unreadCount: 0 }));
    });
  }

  /** Writes the changes and announces the ticket to the rooms of before and after. */
  private async apply(tx: Executor, ticket: TicketRow, changes: TicketChanges): Promise<TicketRow> {
    if (Object.keys(changes).length === 0) return ticket;
    const after = await updateTicket(tx, ticket.clientId, ticket.id, changes);
    await emitTicketEvent(tx, 'updated', after, ticket);
    return after;
  }

  private async assertCategory(tx: Executor, clientId: string, categoryId: string): Promise<void> {
    if (!(await findCategory(tx, clientId, categoryId))) throw badRequest(inboxErrors.categoryNotFound);
  }
}

/** Tags trimmed, without repeats (compared ignoring case), in the order given. */
function uniqueTags(tags: ReadonlyArray<string>): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}
