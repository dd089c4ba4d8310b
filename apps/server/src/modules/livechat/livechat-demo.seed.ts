import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { channelAccounts, livechatWidgets } from '../../db/schema';
import { withTenant } from '../../db/tenant';

/** The demo workspace's live-chat channel account, as the inbox demo seed names it. */
export const demoLivechatAccountName = 'Live Chat Toko Demo';

/** The demo widget's settings, in the demo's language (Indonesian). */
const demoWidget = {
  name: 'Toko Demo',
  colour: '#2563EB',
  onlineTitle: 'Kami sedang online',
  onlineMessage: 'Halo! Ada yang bisa kami bantu? Tim Toko Demo siap membalas chat Anda.',
  offlineTitle: 'Kami sedang offline',
  offlineMessage: 'Tinggalkan pesan dan email Anda, kami akan membalas secepatnya.',
  prechatFields: [{ label: 'Nomor pesanan', customizedData: 'orderNumber', required: false }],
  consentText: 'Saya setuju data saya dipakai Toko Demo untuk menanggapi pertanyaan saya.',
};

/**
 * Gives the demo workspace a connected live chat: its LVC channel account (made here when
 * the inbox demo seed has not) and a widget on the app's own origin, so the demo visitor
 * page can chat with the demo agents. Idempotent; an existing widget keeps its settings
 * and only follows the app's origin when that changed (another port, a PUBLIC_URL).
 */
export async function seedDemoLivechat(
  db: Database,
  clientId: string,
  appOrigin: string,
): Promise<{ widgetId: string }> {
  const domain = await freeDomain(db, appOrigin, clientId);
  return withTenant(db, clientId, async (tx) => {
    const now = new Date();
    let [account] = await tx
      .select()
      .from(channelAccounts)
      .where(
        and(
          eq(channelAccounts.clientId, clientId),
          eq(channelAccounts.channel, 'LVC'),
          eq(channelAccounts.name, demoLivechatAccountName),
          isNull(channelAccounts.deletedAt),
        ),
      );
    account ??= (
      await tx
        .insert(channelAccounts)
        .values({
          clientId,
          channel: 'LVC',
          name: demoLivechatAccountName,
          status: 'CONNECTED',
          connectedAt: now,
        })
        .returning()
    )[0];

    const [existing] = await tx
      .select()
      .from(livechatWidgets)
      .where(and(eq(livechatWidgets.clientId, clientId), eq(livechatWidgets.channelAccountId, account.id)));
    if (existing) {
      if (existing.domain !== domain && !existing.deletedAt)
        await tx
          .update(livechatWidgets)
          .set({ domain, updatedAt: now })
          .where(and(eq(livechatWidgets.clientId, clientId), eq(livechatWidgets.id, existing.id)));
      return { widgetId: existing.id };
    }
    const [created] = await tx
      .insert(livechatWidgets)
      .values({ clientId, channelAccountId: account.id, domain, connectedAt: now, ...demoWidget })
      .returning({ id: livechatWidgets.id });
    await tx
      .update(channelAccounts)
      .set({ status: 'CONNECTED', connectedAt: account.connectedAt ?? now })
      .where(and(eq(channelAccounts.clientId, clientId), eq(channelAccounts.id, account.id)));
    return { widgetId: created.id };
  });
}

/**
 * The app's origin, unless another client's widget already claims it (domains are unique
 * across clients); then a path under it, which the origin check treats the same.
 */
async function freeDomain(db: Database, appOrigin: string, clientId: string): Promise<string> {
  // Outside the tenant on purpose: the uniqueness of a domain spans every client.
  const [taken] = await db
    .select({ id: livechatWidgets.id })
    .from(livechatWidgets)
    .innerJoin(channelAccounts, eq(channelAccounts.id, livechatWidgets.channelAccountId))
    .where(
      and(
        sql`lower(${livechatWidgets.domain}) = ${appOrigin.toLowerCase()}`,
        isNull(livechatWidgets.deletedAt),
        or(ne(livechatWidgets.clientId, clientId), ne(channelAccounts.name, demoLivechatAccountName)),
      ),
    );
  return taken ? `${appOrigin}/demo` : appOrigin;
}
