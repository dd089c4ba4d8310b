import { usePageTitle } from '../../../shared/use-page-title';
import { SearchScreen } from './search-screen';

/** /customer-service/ticket-list (ADVANCE_SEARCH): the search with every ticket filter. */
export function TicketSearchPage() {
  usePageTitle('inbox.advancedSearch.pageTitle');
  return <SearchScreen source="advanced" />;
}
