import type { Database } from '../../../../db/client';
import type { SecretBox } from '../../../../platform/secrets/secret-box';
import { findAccountForWebhook } from '../../channel-account.repository';

/** A connected bot as the webhook and the adapter use it. */
export interface TelegramAccount {
  id: string;
  clientId: string;
  /** The bot token BotFather gave. */
  token: string;
  /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token with every update (setWebhook). */
  webhookSecret: string;
  connected: boolean;
}

/** The credentials sealed in `channel_accounts.sealed_secret` for a Telegram bot. */
interface TelegramSecret {
  token: string;
  webhookSecret: string;
}

/** How long a process trusts what it read of an account: another process may disconnect it. */
const cacheMs = 30_000;

/**
 * Telegram bots' credentials, opened once and kept for a short while: at a thousand updates a
 * second a webhook cannot read and open its account for each one. A disconnect in this process
 * forgets at once; in another process within `cacheMs` (Telegram stops sending anyway, once
 * the webhook is deleted). Only connected bots are kept, so a bot just connected is read
 * again until it is.
 */
export class TelegramAccounts {
  private readonly cache = new Map<string, { account: TelegramAccount; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {}

  seal(secret: TelegramSecret): string {
    return this.box.seal(JSON.stringify(secret));
  }

  /** The bot, or null when there is none by that id (or its credentials do not open). */
  async get(accountId: string): Promise<TelegramAccount | null> {
    const now = Date.now();
    const cached = this.cache.get(accountId);
    if (cached && cached.until > now) return cached.account;
    const row = await findAccountForWebhook(this.db, 'TLG', accountId);
    const opened = row?.sealedSecret ? this.box.open(row.sealedSecret) : null;
    const secret = opened ? (JSON.parse(opened) as TelegramSecret) : null;
    const account =
      row && secret
        ? {
            id: row.id,
            clientId: row.clientId,
            token: secret.token,
            webhookSecret: secret.webhookSecret,
            connected: row.status === 'CONNECTED',
          }
        : null;
    // Only a connected bot is kept: one being connected is asked again on its next update.
    if (account?.connected) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(accountId, { account, until: now + cacheMs });
    }
    return account;
  }

  forget(accountId: string): void {
    this.cache.delete(accountId);
  }
}
