import { randomBytes } from 'node:crypto';
import { type ChannelAccountView, type ConnectTelegramBody, channelErrors, channels } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { HttpError, notFound } from '../../platform/http/http-errors';
import type { TelegramAccounts } from './adapters/tlg/telegram-accounts';
import { TelegramApiError, type TelegramBot, type TelegramBotApi } from './adapters/tlg/telegram-bot-api';
import {
  type ChannelAccountRow,
  findChannelAccount,
  holderOfExternalId,
  insertChannelAccount,
  listChannelAccounts,
  updateChannelAccount,
} from './channel-account.repository';

export function presentChannelAccount(row: ChannelAccountRow): ChannelAccountView {
  const username = typeof row.config.username === 'string' ? row.config.username : null;
  return {
    id: row.id,
    channel: row.channel,
    name: row.name,
    handle: username ? `@${username}` : null,
    status: row.status,
    connectedAt: row.connectedAt ? row.connectedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

const conflict = (message: string) => new HttpError(409, message);
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).code === '23505' ||
  (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * The client's channel accounts (commerce: business settings, channel tab). Connecting a
 * Telegram bot: its token is checked with getMe, the bot may belong to one business only,
 * Telegram is a single-connection channel, and Telegram is told where to deliver the bot's
 * updates (setWebhook, with a secret it sends back with each one). The token and the secret
 * are kept sealed.
 */
export class ChannelAccountService {
  constructor(
    private readonly db: Database,
    private readonly telegram: { api: TelegramBotApi; accounts: TelegramAccounts },
    /** Where this server is reached from outside (PUBLIC_URL, or the address it listens on). */
    private readonly webhookBase: () => string,
  ) {}

  async list(auth: AuthContext): Promise<ChannelAccountView[]> {
    const rows = await withTenant(this.db, auth.clientId, (tx) => listChannelAccounts(tx, auth.clientId));
    return rows.map(presentChannelAccount);
  }

  async connectTelegram(auth: AuthContext, body: ConnectTelegramBody): Promise<ChannelAccountView> {
    const { clientId } = auth;
    const bot = await this.botOf(body.token);
    const holder = await holderOfExternalId(this.db, 'TLG', String(bot.id));
    if (holder) throw conflict(holder === clientId ? channelErrors.accountExists : channelErrors.tokenInUse);
    const webhookSecret = randomBytes(32).toString('base64url');
    let row: ChannelAccountRow;
    try {
      row = await withTenant(this.db, clientId, async (tx) => {
        const existing = await listChannelAccounts(tx, clientId);
        if (!channels.TLG.multipleConnect && existing.some((account) => account.channel === 'TLG'))
          throw conflict(channelErrors.duplicateChannel);
        return insertChannelAccount(tx, {
          clientId,
          channel: 'TLG',
          name: bot.first_name,
          status: 'NOT_CONNECTED',
          externalId: String(bot.id),
          sealedSecret: this.telegram.accounts.seal({ token: body.token, webhookSecret }),
          config: { username: bot.username ?? null, botId: bot.id },
        });
      });
    } catch (error) {
      // Two connects of the same bot at once: the unique index lets one through.
      if (isUniqueViolation(error)) throw conflict(channelErrors.tokenInUse);
      throw error;
    }
    try {
      await this.telegram.api.setWebhook(
        body.token,
        `${this.webhookBase()}/api/webhooks/telegram/${row.id}`,
        webhookSecret,
      );
    } catch {
      await withTenant(this.db, clientId, (tx) =>
        updateChannelAccount(tx, clientId, row.id, { deletedAt: new Date(), status: 'DISCONNECTED' }),
      );
      throw new HttpError(502, channelErrors.connectionFailed);
    }
    const connected = await withTenant(this.db, clientId, (tx) =>
      updateChannelAccount(tx, clientId, row.id, { status: 'CONNECTED', connectedAt: new Date() }),
    );
    this.telegram.accounts.forget(row.id);
    return presentChannelAccount(connected ?? row);
  }

  /** Removes a Telegram bot: Telegram stops delivering its updates first. */
  async disconnect(auth: AuthContext, id: string): Promise<void> {
    const { clientId } = auth;
    const row = await withTenant(this.db, clientId, (tx) => findChannelAccount(tx, clientId, id));
    if (!row) throw notFound(channelErrors.notFound);
    if (row.channel !== 'TLG') throw conflict(channelErrors.managedElsewhere);
    const account = await this.telegram.accounts.get(id);
    if (account) {
      try {
        await this.telegram.api.deleteWebhook(account.token);
      } catch (error) {
        // A revoked token has no webhook left to delete; anything else must be tried again.
        if (!(error instanceof TelegramApiError && error.code === 401))
          throw new HttpError(502, channelErrors.deletionFailed);
      }
    }
    await withTenant(this.db, clientId, (tx) =>
      updateChannelAccount(tx, clientId, id, { deletedAt: new Date(), status: 'DISCONNECTED' }),
    );
    this.telegram.accounts.forget(id);
  }

  /** The bot behind a token: a token Telegram does not know is the user's mistake. */
  private async botOf(token: string): Promise<TelegramBot> {
    try {
      return await this.telegram.api.getMe(token);
    } catch (error) {
      if (error instanceof TelegramApiError && (error.code === 401 || error.code === 404))
        throw new HttpError(400, channelErrors.invalidToken);
      throw new HttpError(502, channelErrors.connectionFailed);
    }
  }
}
