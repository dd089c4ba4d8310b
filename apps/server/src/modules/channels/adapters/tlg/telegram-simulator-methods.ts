import path from 'node:path';
import { type SimulatedTelegramBot, webhookActive } from './telegram-simulator-bot';
import type { StoredTelegramFile } from './telegram-simulator-files';
import { badRequest, TelegramApiError, type TelegramMessage } from './telegram-simulator-types';

/** A Bot API call's parameters, merged from the query string and the body, as Telegram takes them. */
export type TelegramParams = Record<string, unknown>;

/** A file part of a multipart call, under its field name. */
export interface UploadedFile {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

/** A method's answer: its result, and the `description` Telegram adds to a few successes. */
interface MethodAnswer {
  result: unknown;
  description?: string;
}

type Method = (
  bot: SimulatedTelegramBot,
  params: TelegramParams,
  uploads: Map<string, UploadedFile>,
) => MethodAnswer | Promise<MethodAnswer>;

const maxTextLength = 4096;
const maxCaptionLength = 1024;
const secretTokenPattern = /^[A-Za-z0-9_-]{1,256}$/;
const wrongFile = 'wrong file identifier/HTTP URL specified';

function text(params: TelegramParams, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

function integer(params: TelegramParams, name: string): number | undefined {
  const value = text(params, name);
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw badRequest(`invalid ${name} specified`);
  return parsed;
}

function flag(params: TelegramParams, name: string): boolean {
  const value = params[name];
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** Arrays and objects come as JSON in a query or a form, as themselves in a JSON body. */
function structured<T>(params: TelegramParams, name: string): T | undefined {
  const value = params[name];
  if (typeof value !== 'string') return (value ?? undefined) as T | undefined;
  if (value === '') return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}

/** The private chat named by chat_id; only chats whose customer wrote to the bot exist. */
function chatOf(bot: SimulatedTelegramBot, params: TelegramParams) {
  const id = text(params, 'chat_id');
  if (!id) throw badRequest('chat_id is empty');
  const chat = /^-?\d+$/.test(id) ? bot.chat(Number(id)) : undefined;
  if (!chat) throw badRequest('chat not found');
  return chat;
}

function refuseIfBlocked(bot: SimulatedTelegramBot, chatId: number) {
  if (bot.blocked.has(chatId)) throw new TelegramApiError(403, 'Forbidden: bot was blocked by the user');
}

function replyTo(bot: SimulatedTelegramBot, chat: ReturnType<typeof chatOf>, params: TelegramParams) {
  const reply = structured<{ message_id?: number; allow_sending_without_reply?: boolean }>(
    params,
    'reply_parameters',
  );
  const messageId = reply?.message_id ?? integer(params, 'reply_to_message_id');
  const allowWithout = reply?.allow_sending_without_reply ?? flag(params, 'allow_sending_without_reply');
  const target = bot.replyTarget(chat, messageId, allowWithout);
  return target ? { reply_to_message: target } : {};
}

/** The file a send* call carries: an upload (also via `attach://`), an HTTP URL Telegram fetches, or a file_id. */
async function inputFile(
  bot: SimulatedTelegramBot,
  field: 'photo' | 'document',
  params: TelegramParams,
  uploads: Map<string, UploadedFile>,
): Promise<{ upload?: UploadedFile; stored?: StoredTelegramFile }> {
  const reference = text(params, field);
  const upload =
    uploads.get(field) ?? (reference?.startsWith('attach://') && uploads.get(reference.slice(9)));
  if (upload) {
    if (upload.bytes.length === 0) throw badRequest('file must be non-empty');
    return { upload };
  }
  if (!reference) throw badRequest(`there is no ${field} in the request`);
  if (/^https?:\/\//.test(reference)) {
    const response = await fetch(reference, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (!response?.ok) throw badRequest('failed to get HTTP URL content');
    const bytes = Buffer.from(await response.arrayBuffer());
    const fileName = path.basename(new URL(reference).pathname) || 'file';
    const mimeType = response.headers.get('content-type')?.split(';')[0] ?? 'application/octet-stream';
    return { upload: { fileName, mimeType, bytes } };
  }
  const stored = bot.files.get(reference);
  if (!stored) throw badRequest(wrongFile);
  if (!stored[field]) throw badRequest('type of file mismatch');
  return { stored };
}

function captionOf(params: TelegramParams) {
  const caption = text(params, 'caption');
  if (caption && caption.length > maxCaptionLength) throw badRequest('message caption is too long');
  return caption ? { caption } : {};
}

async function sendMedia(
  kind: 'photo' | 'document',
  bot: SimulatedTelegramBot,
  params: TelegramParams,
  uploads: Map<string, UploadedFile>,
): Promise<MethodAnswer> {
  const chat = chatOf(bot, params);
  const caption = captionOf(params);
  const file = await inputFile(bot, kind, params, uploads);
  refuseIfBlocked(bot, chat.customer.chatId);
  const reply = replyTo(bot, chat, params);
  let content: Partial<TelegramMessage>;
  let bytes: Buffer;
  let fileName: string | undefined;
  if (file.stored) {
    content = { [kind]: file.stored[kind] };
    bytes = file.stored.bytes;
    fileName = file.stored.document?.file_name;
  } else {
    const upload = file.upload!;
    content =
      kind === 'photo'
        ? { photo: bot.files.photo(upload.bytes) }
        : { document: bot.files.document(upload.bytes, upload.fileName, upload.mimeType) };
    bytes = upload.bytes;
    fileName = upload.fileName;
  }
  const method = kind === 'photo' ? 'sendPhoto' : 'sendDocument';
  const result = bot.recordSent(
    chat,
    { method, ...caption, ...(fileName ? { fileName } : {}), bytes },
    { ...reply, ...content, ...caption },
  );
  return { result };
}

/** The Bot API methods the simulator knows, by lower-case name (Telegram ignores a method's case). */
const methods: Record<string, Method> = {
  getme: (bot) => ({
    result: {
      ...bot.user,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    },
  }),

  // Real Telegram only posts to HTTPS on ports 443, 80, 88 or 8443; the simulator takes any
  // http(s) URL so that a server on 127.0.0.1 and a random port can receive its updates.
  setwebhook: (bot, params) => {
    const url = text(params, 'url');
    if (url === undefined) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    if (url === '') return methods.deletewebhook(bot, params, new Map());
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    const secretToken = text(params, 'secret_token') || null;
    if (secretToken !== null && !secretTokenPattern.test(secretToken))
      throw badRequest('secret token contains unallowed characters');
    const allowedUpdates = structured<string[]>(params, 'allowed_updates') ?? [];
    if (!Array.isArray(allowedUpdates)) throw badRequest("can't parse allowed_updates JSON object");
    const maxConnections = Math.min(100, Math.max(1, integer(params, 'max_connections') ?? 40));
    const already = bot.webhook?.url === url;
    if (!already) bot.lastWebhookError = null;
    if (flag(params, 'drop_pending_updates')) bot.pending = [];
    bot.webhook = { url, secretToken, allowedUpdates, maxConnections };
    bot.wakePoll('webhook');
    return { result: true, description: already ? 'Webhook is already set' : 'Webhook was set' };
  },

  deletewebhook: (bot, params) => {
    const had = bot.webhook !== null;
    bot.webhook = null;
    if (flag(params, 'drop_pending_updates')) bot.pending = [];
    return { result: true, description: had ? 'Webhook was deleted' : 'Webhook is already deleted' };
  },

  getwebhookinfo: (bot) => {
    const { webhook, lastWebhookError } = bot;
    const base = {
      url: webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: bot.pending.length,
    };
    if (!webhook) return { result: base };
    return {
      result: {
        ...base,
        ...(lastWebhookError
          ? { last_error_date: lastWebhookError.date, last_error_message: lastWebhookError.message }
          : {}),
        max_connections: webhook.maxConnections,
        allowed_updates: webhook.allowedUpdates,
      },
    };
  },

  getupdates: async (bot, params) => {
    if (bot.webhook) throw new TelegramApiError(409, webhookActive);
    const allowed = structured<string[]>(params, 'allowed_updates');
    if (Array.isArray(allowed)) bot.pollAllowedUpdates = allowed;
    const result = await bot.poll({
      offset: integer(params, 'offset'),
      limit: Math.min(100, Math.max(1, integer(params, 'limit') ?? 100)),
      // Telegram caps long polls at 50 s.
      timeout: Math.min(50, Math.max(0, integer(params, 'timeout') ?? 0)),
    });
    return { result };
  },

  sendmessage: (bot, params) => {
    const chat = chatOf(bot, params);
    const message = text(params, 'text') ?? '';
    if (message.trim() === '') throw badRequest('message text is empty');
    if (message.length > maxTextLength) throw badRequest('message is too long');
    refuseIfBlocked(bot, chat.customer.chatId);
    const reply = replyTo(bot, chat, params);
    return {
      result: bot.recordSent(chat, { method: 'sendMessage', text: message }, { ...reply, text: message }),
    };
  },

  sendphoto: (bot, params, uploads) => sendMedia('photo', bot, params, uploads),
  senddocument: (bot, params, uploads) => sendMedia('document', bot, params, uploads),

  getfile: (bot, params) => ({ result: bot.files.describe(text(params, 'file_id') ?? '') }),
};

/**
 * Runs one Bot API call for a bot: a programmed failure first, then the method itself.
 * Throws TelegramApiError for every refusal, which the HTTP layer turns into Telegram's answer.
 */
export async function callTelegramMethod(
  bot: SimulatedTelegramBot,
  method: string,
  params: TelegramParams,
  uploads: Map<string, UploadedFile>,
): Promise<MethodAnswer> {
  const handler = methods[method.toLowerCase()];
  if (!handler) throw new TelegramApiError(404, 'Not Found');
  const failure = bot.takeFailure(method);
  if (failure) throw new TelegramApiError(failure.code, failure.description, failure.retryAfter);
  return handler(bot, params, uploads);
}
