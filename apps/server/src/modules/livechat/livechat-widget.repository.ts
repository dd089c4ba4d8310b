import type { LivechatWidgetBody } from '@app/contracts';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { channelAccounts, livechatWidgets } from '../../db/schema';

export type LivechatWidgetRow = typeof livechatWidgets.$inferSelect;

/** The settings columns a create or update writes. */
export type WidgetSettings = Omit<LivechatWidgetBody, 'domain'> & { domain: string };

const live = (clientId: string) =>
  and(eq(livechatWidgets.clientId, clientId), isNull(livechatWidgets.deletedAt));

/** The widget's LVC channel account: not connected until the widget first loads on its site. */
export async function insertWidgetChannelAccount(
  db: Executor,
  clientId: string,
  values: { name: string; domain: string },
): Promise<string> {
  const [row] = await db
    .insert(channelAccounts)
    .values({
      clientId,
      channel: 'LVC',
      name: values.name,
      status: 'NOT_CONNECTED',
      config: { domain: values.domain },
    })
    .returning({ id: channelAccounts.id });
  return row.id;
}

export async function insertWidget(
  db: Executor,
  clientId: string,
  channelAccountId: string,
  settings: WidgetSettings,
): Promise<LivechatWidgetRow> {
  const [row] = await db
    .insert(livechatWidgets)
    .values({ clientId, channelAccountId, ...settings })
    .returning();
  return row;
}

export async function findWidget(
  db: Executor,
  clientId: string,
  widgetId: string,
): Promise<LivechatWidgetRow | undefined> {
  const [row] = await db
    .select()
    .from(livechatWidgets)
    .where(and(live(clientId), eq(livechatWidgets.id, widgetId)));
  return row;
}

export async function listWidgets(db: Executor, clientId: string): Promise<LivechatWidgetRow[]> {
  return db
    .select()
    .from(livechatWidgets)
    .where(live(clientId))
    .orderBy(asc(livechatWidgets.createdAt), asc(livechatWidgets.id));
}

/**
 * Whether a widget not yet deleted, in any client, already uses the domain: a domain
 * belongs to one business only, so this check looks across clients on purpose.
 */
export async function isDomainTaken(db: Executor, domain: string, exceptWidgetId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: livechatWidgets.id })
    .from(livechatWidgets)
    .where(
      and(
        sql`lower(${livechatWidgets.domain}) = ${domain.toLowerCase()}`,
        isNull(livechatWidgets.deletedAt),
        exceptWidgetId ? ne(livechatWidgets.id, exceptWidgetId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function updateWidget(
  db: Executor,
  clientId: string,
  widget: LivechatWidgetRow,
  settings: WidgetSettings,
): Promise<LivechatWidgetRow> {
  const [row] = await db
    .update(livechatWidgets)
    .set({ ...settings, updatedAt: new Date() })
    .where(and(live(clientId), eq(livechatWidgets.id, widget.id)))
    .returning();
  await db
    .update(channelAccounts)
    .set({ name: settings.name, config: { domain: settings.domain } })
    .where(and(eq(channelAccounts.clientId, clientId), eq(channelAccounts.id, widget.channelAccountId)));
  return row;
}

/** Deletes the widget and its channel account softly: their chats stay, the domain is free again. */
export async function deleteWidget(db: Executor, clientId: string, widget: LivechatWidgetRow): Promise<void> {
  const now = new Date();
  await db
    .update(livechatWidgets)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(live(clientId), eq(livechatWidgets.id, widget.id)));
  await db
    .update(channelAccounts)
    .set({ deletedAt: now, status: 'DISCONNECTED' })
    .where(and(eq(channelAccounts.clientId, clientId), eq(channelAccounts.id, widget.channelAccountId)));
}

/** Records the widget's first load on its site; undefined when it was connected already. */
export async function markWidgetConnected(
  db: Executor,
  clientId: string,
  widgetId: string,
  at: Date,
): Promise<LivechatWidgetRow | undefined> {
  const [row] = await db
    .update(livechatWidgets)
    .set({ connectedAt: at })
    .where(and(live(clientId), eq(livechatWidgets.id, widgetId), isNull(livechatWidgets.connectedAt)))
    .returning();
  if (!row) return undefined;
  await db
    .update(channelAccounts)
    .set({ status: 'CONNECTED', connectedAt: at })
    .where(and(eq(channelAccounts.clientId, clientId), eq(channelAccounts.id, row.channelAccountId)));
  return row;
}
