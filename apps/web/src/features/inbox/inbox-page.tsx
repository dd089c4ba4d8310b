import { canRead } from '@app/contracts';
import { Navigate } from '@tanstack/react-router';
import { lazy } from 'react';
import { usePageTitle } from '../../shared/use-page-title';
import { useSession } from '../../shared/use-session';

// Owners and supervisors only pass through here to the ticket table: the agents' inbox
// (conversation list, welcome panel) is a chunk of its own, so they never load it.
const AgentInbox = lazy(() => import('./agent-inbox').then((module) => ({ default: module.AgentInbox })));

/**
 * /customer-service/inbox (core-inbox §2). Play mode would open the chat room here; it
 * is not built yet. Users who can read VIEW_FEATURE work from the ticket table; everyone
 * else (agents) gets their conversation list beside a welcome panel.
 */
export function InboxPage() {
  usePageTitle('inbox.pageTitle');
  const session = useSession();
  if (!session) return null;
  if (canRead(session.ability, 'VIEW_FEATURE'))
    return <Navigate to="/customer-service/ticket-view" replace />;
  return <AgentInbox session={session} />;
}
