import { type InboxTab, type TicketColumn, type TicketViewListResponse, ticketColumns } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { InboxScope } from './inbox.policy';
import { findTicketColumns, saveTicketColumns } from './inbox-views.repository';
import type { TicketQueryService } from './ticket-query.service';

const knownColumns = new Set<string>(ticketColumns);

/** The ticket list's default views (the tabs) and each user's column set. */
export class InboxViewsService {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketQueryService,
  ) {}

  /**
   * Mine, unassigned and all with their open-ticket counts. A user who does not see the
   * unassigned queue (Customer Service 1) gets no unassigned view.
   */
  async list(scope: InboxScope): Promise<TicketViewListResponse> {
    const counts = await this.tickets.counts(scope);
    const views: InboxTab[] = scope.seesQueue ? ['mine', 'unassigned', 'all'] : ['mine', 'all'];
    return { content: views.map((id) => ({ id, count: counts[id] })) };
  }

  /** The saved columns in their saved order; every column until the user saves a set. */
  async columns(scope: InboxScope): Promise<{ columns: TicketColumn[] }> {
    const saved = await withTenant(this.db, scope.clientId, (tx) =>
      findTicketColumns(tx, scope.clientId, scope.userId),
    );
    // A column the product has since dropped is skipped rather than failing the screen.
    const columns = (saved ?? []).filter((column): column is TicketColumn => knownColumns.has(column));
    return { columns: columns.length > 0 ? columns : [...ticketColumns] };
  }

  async saveColumns(scope: InboxScope, columns: TicketColumn[]): Promise<{ columns: TicketColumn[] }> {
    const unique = [...new Set(columns)];
    await withTenant(this.db, scope.clientId, (tx) =>
      saveTicketColumns(tx, scope.clientId, scope.userId, unique),
    );
    return { columns: unique };
  }
}
