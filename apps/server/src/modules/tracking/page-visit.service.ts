import type { PageVisitBody, PageVisitResponse, TrackerConfigResponse } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { insertPageVisit } from './page-visit.repository';

/**
 * The page-visit tracker (core-inbox §7 tracker/page-visitation): on only for the client
 * ids the operator configured (TRACKED_CLIENT_IDS, core-inbox §9), so other clients'
 * visits are never written, not even briefly.
 */
export class PageVisitService {
  private readonly trackedClientIds: ReadonlySet<string>;

  constructor(
    private readonly db: Database,
    trackedClientIds: readonly string[],
  ) {
    this.trackedClientIds = new Set(trackedClientIds.map((id) => id.toLowerCase()));
  }

  /** Whether tracking is on for the caller's client; the web app asks before posting. */
  config(caller: AuthContext): TrackerConfigResponse {
    return { enabled: this.isTracked(caller.clientId) };
  }

  /** Keeps one visit when the caller's client is tracked; answers whether it did. */
  async record(caller: AuthContext, body: PageVisitBody): Promise<PageVisitResponse> {
    if (!this.isTracked(caller.clientId)) return { recorded: false };
    await withTenant(this.db, caller.clientId, (tx) =>
      insertPageVisit(tx, {
        clientId: caller.clientId,
        userId: caller.userId,
        pageName: body.pageName,
        data1: body.data_1 ?? null,
        data2: body.data_2 ?? null,
        data3: body.data_3 ?? null,
        data4: body.data_4 ?? null,
        data5: body.data_5 ?? null,
      }),
    );
    return { recorded: true };
  }

  private isTracked(clientId: string): boolean {
    return this.trackedClientIds.has(clientId.toLowerCase());
  }
}
