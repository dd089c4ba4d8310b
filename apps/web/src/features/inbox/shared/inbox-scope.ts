import type { TicketSummary } from '@app/contracts';
import type { Session } from '../../../shared/session';

/**
 * What the signed-in user sees of the inbox, read from the token the same way the
 * server's inbox policy reads it (core-inbox §6). The server enforces it; the screens
 * use it only to decide which tabs to offer and which events concern the user.
 */
export interface ClientInboxScope {
  userId: string;
  /** Owners, admins, supervisors and VIEW_FEATURE readers see every chat. */
  seesAll: boolean;
  /** Everyone but Customer Service 1 (play mode) sees the unassigned queue. */
  seesQueue: boolean;
}

export function inboxScopeOfSession(session: Session): ClientInboxScope {
  const { claims, ability } = session;
  const position = claims.csPosition ?? null;
  const isAdmin = claims.role === 'OWN' || claims.role === 'ADC';
  const isSupervisor = position === 'SUPERVISOR_1' || position === 'SUPERVISOR_2';
  const seesAll = isAdmin || isSupervisor || ability.can('READ', 'VIEW_FEATURE');
  return { userId: claims.uid, seesAll, seesQueue: seesAll || position !== 'CS_1' };
}

/** A chat that is the user's to answer: assigned to them, or waiting in their queue. */
export function isMyConcern(scope: ClientInboxScope, ticket: Pick<TicketSummary, 'status' | 'assigneeId'>) {
  if (ticket.assigneeId === scope.userId)
    return ticket.status === 'ASSIGNED' || ticket.status === 'UNASSIGNED';
  return scope.seesQueue && ticket.status === 'UNASSIGNED';
}
