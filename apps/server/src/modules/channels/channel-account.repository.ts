import type { ChannelCode } from '@app/contracts';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { channelAccounts } from '../../db/schema';

export type ChannelAccountRow = typeof channelAccounts.$inferSelect;

const live = (clientId: string) =>
  and(eq(channelAccounts.clientId, clientId), isNull(channelAccounts.deletedAt));

/** The client's accounts not deleted, oldest first. */
export async function listChannelAccounts(db: Executor, clientId: string): Promise<ChannelAccountRow[]> {
  return db
    .select()
    .from(channelAccounts)
    .where(live(clientId))
    .orderBy(asc(channelAccounts.createdAt), asc(channelAccounts.id));
}

export async function findChannelAccount(
  db: Executor,
  clientId: string,
  id: string,
): Promise<ChannelAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(channelAccounts)
    .where(and(live(clientId), eq(channelAccounts.id, id)));
  return row;
}

/**
 * An account not deleted by its id alone, whatever its client: a provider's webhook names
 * the account in its address before anyone knows the tenant, so this looks across clients on
 * purpose (the caller proves it is the provider before using anything of it).
 */
export async function findAccountForWebhook(
  db: Executor,
  channel: ChannelCode,
  id: string,
): Promise<ChannelAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.id, id),
        eq(channelAccounts.channel, channel),
        isNull(channelAccounts.deletedAt),
      ),
    );
  return row;
}

/** Which client, if any, holds the channel's account with this external id: across clients on purpose. */
export async function holderOfExternalId(
  db: Executor,
  channel: ChannelCode,
  externalId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ clientId: channelAccounts.clientId })
    .from(channelAccounts)
    .where(
      and(
        eq(channelAccounts.channel, channel),
        eq(channelAccounts.externalId, externalId),
        isNull(channelAccounts.deletedAt),
      ),
    );
  return row?.clientId;
}

export async function insertChannelAccount(
  db: Executor,
  values: typeof channelAccounts.$inferInsert,
): Promise<ChannelAccountRow> {
  const [row] = await db.insert(channelAccounts).values(values).returning();
  return row;
}

export async function updateChannelAccount(
  db: Executor,
  clientId: string,
  id: string,
  patch: Partial<Pick<ChannelAccountRow, 'status' | 'connectedAt' | 'deletedAt' | 'name' | 'config'>>,
): Promise<ChannelAccountRow | undefined> {
  const [row] = await db
    .update(channelAccounts)
    .set(patch)
    .where(and(live(clientId), eq(channelAccounts.id, id)))
    .returning();
  return row;
}
