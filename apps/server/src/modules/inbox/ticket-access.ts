import { inboxErrors } from '@app/contracts';
import type { Executor } from '../../db/client';
import { forbidden, notFound } from '../../platform/http/http-errors';
import { canSeeTicket, type InboxScope } from './inbox.policy';
import type { TicketRow } from './ticket.presenter';
import { findTicket } from './ticket.repository';

/**
 * The ticket if the caller may see it. Another client's ticket and one the caller's
 * position hides answer the same 404, so neither reveals that it exists.
 */
export async function visibleTicket(
  tx: Executor,
  scope: InboxScope,
  ticketId: number,
  options: { forUpdate?: boolean } = {},
): Promise<TicketRow> {
  const ticket = await findTicket(tx, scope.clientId, ticketId, options);
  if (!ticket || !canSeeTicket(scope, ticket)) throw notFound();
  return ticket;
}

/** Changing a chat is for those who answer chats or manage them (not a watching Supervisor 1 alone). */
export function assertCanWork(scope: InboxScope): void {
  if (!scope.canReply && !scope.canManage) throw forbidden(inboxErrors.cannotReply);
}

/** Unassigned or assigned: still a conversation. */
export function isOpen(ticket: Pick<TicketRow, 'status'>): boolean {
  return ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
}

/** Open, on a channel with an expiry, and past it: only a customer message revives it. */
export function isExpired(ticket: Pick<TicketRow, 'status' | 'expiresAt'>, now = new Date()): boolean {
  return isOpen(ticket) && ticket.expiresAt !== null && ticket.expiresAt <= now;
}
