import { canRead } from '@app/contracts';
import { Navigate } from '@tanstack/react-router';
import { usePageTitle } from '../../../shared/use-page-title';
import { useSession } from '../../../shared/use-session';
import { SearchScreen } from './search-screen';

/**
 * /customer-service/chat-history (core-inbox §2): users who can read ADVANCE_SEARCH go to
 * the advanced search; the others search the history with the plain filters.
 */
export function ChatHistoryPage() {
  usePageTitle('inbox.history.pageTitle');
  const session = useSession();
  if (!session) return null;
  if (canRead(session.ability, 'ADVANCE_SEARCH'))
    return <Navigate to="/customer-service/ticket-list" replace />;
  return <SearchScreen source="history" />;
}
