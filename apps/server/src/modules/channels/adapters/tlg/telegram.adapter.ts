import type { Readable } from 'node:stream';
import type { ChannelAdapter, DeliveryReceipt, OutboundDelivery } from '../../channel-adapter';
import { DeliveryError } from '../../channel-adapter';
import type { TelegramAccounts } from './telegram-accounts';
import { TelegramApiError, type TelegramBotApi, type TelegramSentMessage } from './telegram-bot-api';

/** Opens a stored file (the media module). */
export interface FileReader {
  read(
    clientId: string,
    fileId: string,
  ): Promise<{ file: { name: string; mime: string }; stream: Readable } | null>;
}

/** Telegram's limits: a message's text, and a file's caption. */
const textLimit = 4096;
const captionLimit = 1024;
/** Photos Telegram shows as photos; any other file goes as a document. */
const photoTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const photoMaxBytes = 10 * 1024 * 1024;

/** Telegram's id of a sent message: message ids count per chat, so the chat is part of it. */
export const telegramMessageId = (chatId: number | string, messageId: number) => `${chatId}:${messageId}`;

/**
 * The Telegram channel's outbound half: an agent's text goes by sendMessage, each attachment
 * by sendPhoto or sendDocument (the text as the first one's caption when it fits). Flood
 * control (429, not before its retry_after), Telegram's own errors (5xx) and no answer are
 * retried by the delivery job;
 * a refusal (blocked by the user, chat not found) marks the message FAILED with Telegram's words.
 */
export class TelegramAdapter implements ChannelAdapter {
  readonly channel = 'TLG' as const;

  constructor(
    private readonly api: TelegramBotApi,
    private readonly accounts: TelegramAccounts,
    private readonly files: FileReader,
  ) {}

  async deliver(delivery: OutboundDelivery): Promise<DeliveryReceipt> {
    const account = await this.accounts.get(delivery.channelAccountId);
    if (!account?.connected) throw new DeliveryError('Channel is not connected', false);
    try {
      let first: TelegramSentMessage | undefined;
      const text = delivery.text.trim();
      const captioned = delivery.attachments.length > 0 && text.length <= captionLimit;
      if (text && !captioned) {
        for (let start = 0; start < text.length; start += textLimit) {
          const sent = await this.api.sendMessage(
            account.token,
            delivery.externalId,
            text.slice(start, start + textLimit),
          );
          first ??= sent;
        }
      }
      for (const [index, attachment] of delivery.attachments.entries()) {
        const stored = await this.files.read(delivery.clientId, attachment.id);
        if (!stored) throw new DeliveryError(`Attachment ${attachment.name} is no longer stored`, false);
        const bytes = Buffer.concat((await stored.stream.toArray()) as Buffer[]);
        const kind = photoTypes.has(stored.file.mime) && bytes.length <= photoMaxBytes ? 'photo' : 'document';
        const sent = await this.api.sendFile(
          account.token,
          delivery.externalId,
          kind,
          { name: stored.file.name, mime: stored.file.mime, bytes },
          captioned && index === 0 && text ? text : undefined,
        );
        first ??= sent;
      }
      if (!first) throw new DeliveryError('Nothing to send', false);
      return { providerMessageId: telegramMessageId(first.chat.id, first.message_id), status: 'SENT' };
    } catch (error) {
      if (error instanceof TelegramApiError)
        throw new DeliveryError(error.description, error.retryable, error.retryAfter);
      throw error;
    }
  }
}
