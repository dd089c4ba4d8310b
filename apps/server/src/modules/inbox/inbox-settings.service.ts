import { type InboxConfiguration, inboxErrors } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { HttpError, notFound } from '../../platform/http/http-errors';
import { listAssignableUsers } from '../identity/user.repository';
import { listGroups } from './agent-group.repository';
import {
  type CategoryRow,
  deleteCategory,
  insertCategory,
  listCategories,
  nameTaken,
  updateCategory,
} from './category.repository';
import {
  type ConfigurationRow,
  findConfiguration,
  saveConfiguration,
  startingSwitches,
} from './configuration.repository';
import { tagsInUse } from './ticket.repository';

const presentCategory = (row: CategoryRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
});

const flag = (value: number) => (value ? 1 : 0) as 0 | 1;

/** The spec's configuration object; a client that never saved one reads `startingSwitches`. */
function presentConfiguration(row: ConfigurationRow | undefined): InboxConfiguration {
  const switches = { featureCs: 0, isAutoAssignFeature: 0, ...startingSwitches, ...row };
  return {
    featureCs: switches.featureCs,
    isAutoAssignFeature: flag(switches.isAutoAssignFeature),
    isDisplayChatroomEmoji: flag(switches.isDisplayChatroomEmoji),
    isDisplayChatroomAttachment: flag(switches.isDisplayChatroomAttachment),
    isDisplayChatroomCSName: flag(switches.isDisplayChatroomCsName),
  };
}

/**
 * The inbox's reference data: categories, the chat-service configuration, the tags in
 * use, and who and which groups a chat can be transferred to.
 */
export class InboxSettingsService {
  constructor(private readonly db: Database) {}

  async categories(auth: AuthContext) {
    const rows = await withTenant(this.db, auth.clientId, (tx) => listCategories(tx, auth.clientId));
    return { content: rows.map(presentCategory) };
  }

  async createCategory(auth: AuthContext, input: { name: string; description?: string | null }) {
    return withTenant(this.db, auth.clientId, async (tx) => {
      const row = await insertCategory(tx, auth.clientId, {
        name: input.name,
        description: input.description ?? null,
      });
      if (!row) throw new HttpError(409, inboxErrors.categoryExists);
      return presentCategory(row);
    });
  }

  async updateCategory(
    auth: AuthContext,
    categoryId: string,
    input: { name: string; description?: string | null },
  ) {
    return withTenant(this.db, auth.clientId, async (tx) => {
      if (await nameTaken(tx, auth.clientId, input.name, categoryId))
        throw new HttpError(409, inboxErrors.categoryExists);
      const row = await updateCategory(tx, auth.clientId, categoryId, {
        name: input.name,
        description: input.description ?? null,
      });
      if (!row) throw notFound(inboxErrors.categoryNotFound);
      return presentCategory(row);
    });
  }

  async deleteCategory(auth: AuthContext, categoryId: string): Promise<void> {
    const deleted = await withTenant(this.db, auth.clientId, (tx) =>
      deleteCategory(tx, auth.clientId, categoryId),
    );
    if (!deleted) throw notFound(inboxErrors.categoryNotFound);
  }

  async configuration(auth: AuthContext): Promise<InboxConfiguration> {
    const row = await withTenant(this.db, auth.clientId, (tx) => findConfiguration(tx, auth.clientId));
    return presentConfiguration(row);
  }

  async saveConfiguration(auth: AuthContext, changes: Partial<InboxConfiguration>) {
    const row = await withTenant(this.db, auth.clientId, (tx) =>
      saveConfiguration(tx, auth.clientId, {
        featureCs: changes.featureCs,
        isAutoAssignFeature: changes.isAutoAssignFeature,
        isDisplayChatroomEmoji: changes.isDisplayChatroomEmoji,
        isDisplayChatroomAttachment: changes.isDisplayChatroomAttachment,
        isDisplayChatroomCsName: changes.isDisplayChatroomCSName,
      }),
    );
    return presentConfiguration(row);
  }

  /** GET tags: the tag suggestions, from the newest 5,000 tagged tickets. */
  async tags(auth: AuthContext) {
    const content = await withTenant(this.db, auth.clientId, (tx) =>
      tagsInUse(tx, auth.clientId, { sample: 5000, limit: 200 }),
    );
    return { content };
  }

  async groups(auth: AuthContext) {
    const rows = await withTenant(this.db, auth.clientId, (tx) => listGroups(tx, auth.clientId));
    return {
      content: rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        isDefault: row.isDefault === 1,
        memberIds: row.memberIds,
      })),
    };
  }

  /** GET agents: who a chat can be assigned to, online first. */
  async agents(auth: AuthContext) {
    const rows = await withTenant(this.db, auth.clientId, (tx) => listAssignableUsers(tx, auth.clientId));
    const content = rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      csPosition: row.csPosition,
      agentStatus: row.agentStatus,
    }));
    content.sort((a, b) => Number(b.agentStatus === 'ONLINE') - Number(a.agentStatus === 'ONLINE'));
    return { content };
  }
}
