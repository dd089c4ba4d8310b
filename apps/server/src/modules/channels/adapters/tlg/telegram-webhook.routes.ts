import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { App } from '../../../../platform/http/app';
import { HttpError } from '../../../../platform/http/http-errors';
import type { StoredAttachment } from '../../../inbox/attachment-store';
import type { InboundInput } from '../../../inbox/conversation.service';
import { type InboundJournal, type JournalEntry, UnstorableEntry } from '../../inbound-journal';
import { telegramMessageId } from './telegram.adapter';
import type { TelegramAccount, TelegramAccounts } from './telegram-accounts';
import { TelegramApiError, type TelegramBotApi } from './telegram-bot-api';
import { telegramSecretHeader } from './telegram-protocol';
import {
  contentOf,
  customerNameOf,
  type IncomingFile,
  type ParsedTelegramMessage,
  telegramMessageSchema,
  telegramUpdateSchema,
} from './telegram-update';

/** Bots may download files up to 20 MB (getFile). */
const downloadMaxBytes = 20 * 1024 * 1024;
/**
 * Failed tries after which a file Telegram keeps not giving is given up: the message is stored
 * with a note in its place (after about 1.4 hours of the journal's doubling backoff), so the
 * customer's words reach an agent, who can ask for the file again.
 */
export const fileTriesBeforeNote = 10;

/** Keeps a provider's file as a ready attachment (the media module). */
export interface FileKeeper {
  saveFile(
    clientId: string,
    ownerRef: string,
    file: { name: string; mime: string; bytes: Buffer },
  ): Promise<StoredAttachment>;
}

export interface TelegramWebhookDeps {
  accounts: TelegramAccounts;
  api: TelegramBotApi;
  receiveInbound(input: InboundInput): Promise<unknown>;
  journal: InboundJournal;
  media: FileKeeper;
  logger: FastifyBaseLogger;
}

const sameSecret = (given: string | string[] | undefined, expected: string) => {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Where Telegram delivers a connected bot's updates (setWebhook, with its secret token):
 * `POST /api/webhooks/telegram/<account id>`. A customer's private message is kept before the
 * answer (persist, then acknowledge), so a 200 means it is kept: a text is stored as a message
 * there and then; one with a file is kept in the inbound journal, and becomes a message once
 * its file is fetched from Telegram (`storeTelegramEntry`), tried again later should Telegram
 * not give it yet. A repeat of one already stored (Telegram delivers at least once) is
 * answered 200 and stored once. Anything that fails on our side answers 5xx, and Telegram
 * sends the update again later.
 */
export function registerTelegramWebhookRoutes(app: App, deps: TelegramWebhookDeps): void {
  deps.journal.handle('TLG', (entry) => storeTelegramEntry(deps, entry));
  app.post(
    '/api/webhooks/telegram/:accountId',
    {
      config: { access: 'public' },
      schema: { params: z.object({ accountId: z.string() }), hide: true },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const account = z.string().uuid().safeParse(accountId).success
        ? await deps.accounts.get(accountId)
        : null;
      if (!account?.connected) throw new HttpError(404, 'Unknown bot');
      if (!sameSecret(request.headers[telegramSecretHeader], account.webhookSecret))
        throw new HttpError(401, 'Secret token does not match');
      const update = telegramUpdateSchema.safeParse(request.body);
      // Not an update we can read: answering an error would only make Telegram repeat it.
      if (!update.success) {
        request.log.warn({ issues: update.error.issues.slice(0, 3) }, 'telegram update not understood');
        return reply.code(200).send();
      }
      const message = update.data.message;
      if (message && message.chat.type === 'private' && !message.from?.is_bot) {
        // Fetching a file may take long or fail on Telegram's side: not while Telegram waits.
        if (contentOf(message).file)
          await deps.journal.keep({
            clientId: account.clientId,
            channelAccountId: account.id,
            channel: 'TLG',
            payload: message,
          });
        else await storeMessage(deps, account, message);
      }
      return reply.code(200).send();
    },
  );
}

/**
 * A kept update becomes a message. Its bot gone (disconnected ones still fetch their files:
 * the message came while it was connected) lets the entry go; anything else throws, and the
 * journal tries again later.
 */
async function storeTelegramEntry(deps: TelegramWebhookDeps, entry: JournalEntry): Promise<void> {
  const account = await deps.accounts.get(entry.channelAccountId);
  if (!account || account.clientId !== entry.clientId)
    throw new UnstorableEntry(`Telegram bot ${entry.channelAccountId} is gone`);
  const message = telegramMessageSchema.safeParse(entry.payload);
  if (!message.success) throw new UnstorableEntry('Not a Telegram message');
  try {
    await storeMessage(deps, account, message.data, entry.attempts >= fileTriesBeforeNote);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404)
      throw new UnstorableEntry(`Telegram bot ${entry.channelAccountId}: ${error.message}`);
    throw error;
  }
}

async function storeMessage(
  deps: TelegramWebhookDeps,
  account: TelegramAccount,
  message: ParsedTelegramMessage,
  /** The file's last try: should Telegram not give it, a note takes its place. */
  lastTry = false,
) {
  const content = contentOf(message);
  const attachments: StoredAttachment[] = [];
  let text = content.text;
  if (content.file) {
    const fetched = await fetchFile(deps, account, content.file, lastTry);
    if ('attachment' in fetched) attachments.push(fetched.attachment);
    else text = [text, `[${content.file.name}: ${fetched.refused}]`].filter(Boolean).join('\n');
  }
  if (!text && attachments.length === 0) text = '[Telegram: unsupported message]';
  const username = message.from?.username ?? message.chat.username;
  await deps.receiveInbound({
    clientId: account.clientId,
    channelAccountId: account.id,
    customer: {
      externalId: String(message.chat.id),
      name: customerNameOf(message),
      notes: username ? `Telegram @${username}` : null,
    },
    providerMessageId: telegramMessageId(message.chat.id, message.message_id),
    text,
    attachments,
    sentAt: new Date(message.date * 1000),
  });
}

/**
 * Downloads the customer's file and keeps it. Telegram's refusal of this file (too big, gone)
 * is answered as text in the message instead; not reaching Telegram throws, so the journal
 * tries the entry again later.
 */
async function fetchFile(
  deps: TelegramWebhookDeps,
  account: TelegramAccount,
  file: IncomingFile,
  lastTry: boolean,
): Promise<{ attachment: StoredAttachment } | { refused: string }> {
  if (file.size !== undefined && file.size > downloadMaxBytes) return { refused: 'file is too big' };
  try {
    const described = await deps.api.getFile(account.token, file.fileId);
    if (!described.file_path) return { refused: 'file is not available' };
    const bytes = await deps.api.download(account.token, described.file_path);
    const attachment = await deps.media.saveFile(account.clientId, `channel:${account.id}`, {
      name: file.name,
      mime: file.mime,
      bytes,
    });
    return { attachment };
  } catch (error) {
    if (error instanceof TelegramApiError && !error.retryable) return { refused: error.description };
    if (lastTry)
      return {
        refused: `file not fetched from Telegram (${error instanceof Error ? error.message : error})`,
      };
    deps.logger.warn(
      { err: error, account: account.id },
      'telegram file not fetched; the entry will be tried again',
    );
    throw new Error('File not fetched yet', { cause: error });
  }
}
