import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import type { App } from '../../platform/http/app';
import { SecretBox } from '../../platform/secrets/secret-box';
import type { InboundInput } from '../inbox/conversation.service';
import { LiveChatAdapter } from './adapters/lvc/lvc.adapter';
import { type FileReader, TelegramAdapter } from './adapters/tlg/telegram.adapter';
import { TelegramAccounts } from './adapters/tlg/telegram-accounts';
import { TelegramBotApi } from './adapters/tlg/telegram-bot-api';
import { type FileKeeper, registerTelegramWebhookRoutes } from './adapters/tlg/telegram-webhook.routes';
import { registerChannelAccountRoutes } from './channel-account.routes';
import { ChannelAccountService } from './channel-account.service';
import { ChannelRegistry } from './channel-adapter';
import { InboundJournal, type InboundJournalOptions } from './inbound-journal';

/** What the channels need of the media module: open a stored file, keep a provider's. */
export interface ChannelMedia extends FileReader, FileKeeper {}

/**
 * The channel adapters and their accounts. The registry exists before the inbox (its
 * delivery job hands messages to it); the routes come once the inbox can take messages in.
 */
export function createChannels(parts: {
  database: DatabaseHandle;
  logger: FastifyBaseLogger;
  serverSecret: string;
  media: ChannelMedia;
  telegramApiBase: string;
  journal?: InboundJournalOptions;
}) {
  const registry = new ChannelRegistry();
  const api = new TelegramBotApi(parts.telegramApiBase);
  /** What webhooks received, kept until it is stored (persist, then acknowledge). */
  const journal = new InboundJournal(parts.database, parts.logger, parts.journal);
  const accounts = new TelegramAccounts(
    parts.database.db,
    new SecretBox(parts.serverSecret, 'channel-credentials/v1'),
  );
  registry.register(new LiveChatAdapter());
  registry.register(new TelegramAdapter(api, accounts, parts.media));
  return {
    registry,
    journal,
    registerRoutes(
      app: App,
      options: { webhookBase: () => string; receiveInbound(input: InboundInput): Promise<unknown> },
    ) {
      registerChannelAccountRoutes(
        app,
        new ChannelAccountService(parts.database.db, { api, accounts }, options.webhookBase),
      );
      registerTelegramWebhookRoutes(app, {
        accounts,
        api,
        receiveInbound: options.receiveInbound,
        journal,
        media: parts.media,
        logger: app.log,
      });
    },
  };
}
