import type { TicketStatus } from '@app/contracts';
import { rooms } from '../../platform/events/outbox';
import type { AuthContext } from '../../platform/http/authentication';

/**
 * Who sees and answers which chats (core-inbox §6):
 * - owners, admins, Supervisor 1 and 2, and anyone who may read VIEW_FEATURE see every chat;
 * - Supervisor 1 sees but never replies and is never assigned;
 * - Customer Service 1 (play mode) sees only chats assigned to them;
 * - Customer Service 2, and agents without a position, see chats assigned to them and the
 *   unassigned queue, from which replying takes the chat (auto-assignment comes later).
 */
export interface InboxScope {
  userId: string;
  clientId: string;
  seesAll: boolean;
  seesQueue: boolean;
  canReply: boolean;
  canBeAssigned: boolean;
  /** May assign, transfer and change other people's chats. */
  canManage: boolean;
}

export function inboxScopeOf(auth: AuthContext): InboxScope {
  const position = auth.claims.csPosition ?? null;
  const isAdmin = auth.role === 'OWN' || auth.role === 'ADC';
  const isSupervisor = position === 'SUPERVISOR_1' || position === 'SUPERVISOR_2';
  const seesAll = isAdmin || isSupervisor || auth.ability.can('READ', 'VIEW_FEATURE');
  const inInbox = auth.ability.can('READ', 'CUSTOMER_SERVICE_INBOX');
  return {
    userId: auth.userId,
    clientId: auth.clientId,
    seesAll,
    seesQueue: seesAll || position !== 'CS_1',
    canReply: inInbox && position !== 'SUPERVISOR_1',
    canBeAssigned: position !== 'SUPERVISOR_1',
    canManage: isAdmin || isSupervisor,
  };
}

/** The part of a ticket visibility depends on. */
export interface TicketVisibility {
  status: TicketStatus;
  assigneeId: string | null;
}

export function canSeeTicket(scope: InboxScope, ticket: TicketVisibility): boolean {
  if (scope.seesAll) return true;
  if (ticket.assigneeId === scope.userId) return true;
  return scope.seesQueue && ticket.status === 'UNASSIGNED';
}

/** Rooms a new socket joins for the inbox: every chat, or the unassigned queue. */
export function inboxConnectionRooms(auth: AuthContext): string[] {
  const scope = inboxScopeOf(auth);
  if (scope.seesAll) return [rooms.inbox(auth.clientId)];
  return scope.seesQueue ? [rooms.queue(auth.clientId)] : [];
}

/**
 * Rooms a ticket's events go to: the ticket's own room, everyone who sees all, its
 * assignee (and the one before, so their list drops it), and the queue while unassigned
 * or when it just left the queue.
 */
export function ticketEventRooms(
  clientId: string,
  ticket: { id: number; status: TicketStatus; assigneeId: string | null },
  before?: { status: TicketStatus; assigneeId: string | null } | null,
): string[] {
  const list = new Set([rooms.ticket(ticket.id), rooms.inbox(clientId)]);
  if (ticket.assigneeId) list.add(rooms.user(ticket.assigneeId));
  if (before?.assigneeId) list.add(rooms.user(before.assigneeId));
  if (ticket.status === 'UNASSIGNED' || before?.status === 'UNASSIGNED') list.add(rooms.queue(clientId));
  return [...list];
}
