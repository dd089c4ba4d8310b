import { randomInt } from 'node:crypto';
import { readImageHeader } from '../../../media/image-dimensions';
import { TelegramFileStore } from './telegram-simulator-files';
import {
  badRequest,
  customerChat,
  customerUser,
  TelegramApiError,
  type TelegramCustomer,
  type TelegramMessage,
  type TelegramUpdate,
  type TelegramUser,
  telegramSecretHeader,
  unixNow,
} from './telegram-simulator-types';

/** A bot as BotFather hands it out. */
export interface SimulatedBotIdentity {
  token: string;
  id: number;
  username: string;
  firstName: string;
}

/** One message the bot sent, as the simulator recorded it. */
export interface SentTelegramMessage {
  chatId: number;
  method: string;
  text?: string;
  caption?: string;
  fileName?: string;
  bytes?: Buffer;
  message: TelegramMessage;
}

/** What setWebhook registered. */
export interface TelegramWebhook {
  url: string;
  secretToken: string | null;
  allowedUpdates: string[];
  maxConnections: number;
}

/** What a customer's message contains besides who sent it. */
export interface CustomerMessageInput extends TelegramCustomer {
  text?: string;
  photo?: { bytes: Buffer; caption?: string };
  document?: { bytes: Buffer; fileName: string; mimeType: string; caption?: string };
  date?: number;
}

/** How an update travelled: the webhook's last HTTP status (0: none or unreachable) and the tries. */
export interface UpdateDelivery {
  update: TelegramUpdate;
  status: number;
  attempts: number;
}

interface ChatState {
  customer: TelegramCustomer;
  /** Customer's and bot's messages share this per-chat counter, as in Telegram. */
  lastMessageId: number;
  messages: Map<number, TelegramMessage>;
}

/** Why a waiting getUpdates ends: news, a newer poll, a webhook taking over, or its timeout. */
type PollEnd = 'update' | 'conflict' | 'webhook' | 'stop';

/** getUpdates' refusal while a webhook is set. */
export const webhookActive =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

/** Telegram retries "a reasonable amount of attempts"; three with short pauses keeps tests fast. */
const retryDelaysMs = [50, 100];
const webhookTimeoutMs = 10_000;
/** Kinds Telegram leaves out when allowed_updates is empty. */
const optInUpdates = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

function webhookFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'Read timeout expired';
  if (cause?.code === 'ECONNREFUSED') return 'Connection refused';
  if (cause?.code === 'ENOTFOUND') return 'Failed to resolve host: Name or service not known';
  return `Connection failed: ${cause?.message ?? (error as Error).message}`;
}

/** One bot's whole state on the simulated Telegram side: its chats, files, webhook and updates. */
export class SimulatedTelegramBot {
  readonly files = new TelegramFileStore();
  readonly sent: SentTelegramMessage[] = [];
  readonly blocked = new Set<number>();
  webhook: TelegramWebhook | null = null;
  lastWebhookError: { date: number; message: string } | null = null;
  /** Allowed update kinds for getUpdates (setWebhook keeps its own). */
  pollAllowedUpdates: string[] = [];
  /** Updates not yet confirmed by getUpdates, or that the webhook failed to take. */
  pending: TelegramUpdate[] = [];
  private readonly chats = new Map<number, ChatState>();
  private readonly failures = new Map<
    string,
    Array<{ code: number; description: string; retryAfter?: number }>
  >();
  private nextUpdateId = randomInt(100_000_000, 900_000_000);
  private waitingPoll: ((outcome: PollEnd) => void) | null = null;

  constructor(readonly identity: SimulatedBotIdentity) {}

  /** The bot as `from` of its messages. */
  get user(): TelegramUser {
    return {
      id: this.identity.id,
      is_bot: true,
      first_name: this.identity.firstName,
      username: this.identity.username,
    };
  }

  /** The private chat with a customer, created as if they had pressed Start. */
  openChat(customer: TelegramCustomer): ChatState {
    const chat = this.chats.get(customer.chatId);
    if (chat) {
      chat.customer = { ...chat.customer, ...customer };
      return chat;
    }
    const created = { customer: { ...customer }, lastMessageId: 0, messages: new Map() };
    this.chats.set(customer.chatId, created);
    return created;
  }

  chat(chatId: number): ChatState | undefined {
    return this.chats.get(chatId);
  }

  /** Records a message the bot sent into a chat and returns it as the Bot API does. */
  recordSent(
    chat: ChatState,
    entry: Omit<SentTelegramMessage, 'chatId' | 'message'>,
    content: Omit<TelegramMessage, 'message_id' | 'from' | 'chat' | 'date'>,
  ): TelegramMessage {
    chat.lastMessageId += 1;
    const message: TelegramMessage = {
      message_id: chat.lastMessageId,
      from: this.user,
      chat: customerChat(chat.customer),
      date: unixNow(),
      ...content,
    };
    chat.messages.set(message.message_id, message);
    this.sent.push({ chatId: chat.customer.chatId, ...entry, message });
    return message;
  }

  failNext(method: string, error: { code: number; description: string; retryAfter?: number }, times: number) {
    const queue = this.failures.get(method.toLowerCase()) ?? [];
    for (let index = 0; index < times; index += 1) queue.push(error);
    this.failures.set(method.toLowerCase(), queue);
  }

  /** The programmed failure for this call of the method, if any is left. */
  takeFailure(method: string) {
    return this.failures.get(method.toLowerCase())?.shift();
  }

  /** A customer's message, delivered by webhook or queued for getUpdates. */
  async customerWrites(input: CustomerMessageInput): Promise<UpdateDelivery> {
    const { text, photo, document, date, ...customer } = input;
    if (text === undefined && !photo && !document)
      throw new Error('customerWrites needs a text, a photo or a document');
    if (photo && !readImageHeader(photo.bytes))
      throw new Error('customerWrites: photo bytes must be a PNG or JPEG, as Telegram clients send');
    const chat = this.openChat(customer);
    const content: Partial<TelegramMessage> = photo
      ? { photo: this.files.photo(photo.bytes), ...(photo.caption ? { caption: photo.caption } : {}) }
      : document
        ? {
            document: this.files.document(document.bytes, document.fileName, document.mimeType),
            ...(document.caption ? { caption: document.caption } : {}),
          }
        : { text };
    chat.lastMessageId += 1;
    const message: TelegramMessage = {
      message_id: chat.lastMessageId,
      from: customerUser(chat.customer),
      chat: customerChat(chat.customer),
      date: date ?? unixNow(),
      ...content,
    };
    chat.messages.set(message.message_id, message);
    return this.publish({ update_id: this.nextUpdateId++, message });
  }

  /** The customer blocks the bot: a `my_chat_member` update to `kicked`, and sends fail with 403. */
  async customerBlocks(chatId: number): Promise<UpdateDelivery> {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`chat ${chatId} never wrote to @${this.identity.username}`);
    this.blocked.add(chatId);
    return this.publish({
      update_id: this.nextUpdateId++,
      my_chat_member: {
        chat: customerChat(chat.customer),
        from: customerUser(chat.customer),
        date: unixNow(),
        old_chat_member: { user: this.user, status: 'member' },
        new_chat_member: { user: this.user, status: 'kicked', until_date: 0 },
      },
    });
  }

  /** Posts to the webhook (retrying), or queues for getUpdates; undelivered updates stay pending. */
  private async publish(update: TelegramUpdate): Promise<UpdateDelivery> {
    const kind = Object.keys(update).find((key) => key !== 'update_id') ?? '';
    const allowed = this.webhook ? this.webhook.allowedUpdates : this.pollAllowedUpdates;
    if (allowed.length > 0 ? !allowed.includes(kind) : optInUpdates.has(kind))
      return { update, status: 0, attempts: 0 };
    const webhook = this.webhook;
    if (!webhook) {
      this.pending.push(update);
      this.wakePoll('update');
      return { update, status: 0, attempts: 0 };
    }
    let status = 0;
    for (let attempt = 1; attempt <= retryDelaysMs.length + 1; attempt += 1) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt - 2]));
      try {
        const response = await fetch(webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(webhook.secretToken ? { [telegramSecretHeader]: webhook.secretToken } : {}),
          },
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(webhookTimeoutMs),
        });
        status = response.status;
        await response.arrayBuffer();
        if (response.ok) return { update, status, attempts: attempt };
        this.lastWebhookError = {
          date: unixNow(),
          message: `Wrong response from the webhook: ${status} ${response.statusText}`.trim(),
        };
      } catch (error) {
        status = 0;
        this.lastWebhookError = { date: unixNow(), message: webhookFailure(error) };
      }
    }
    this.pending.push(update);
    return { update, status, attempts: retryDelaysMs.length + 1 };
  }

  /**
   * getUpdates: confirms what is below `offset`, then answers at once when something is
   * pending, else waits up to `timeout` seconds. A newer call ends a waiting one with 409.
   */
  async poll(options: { offset?: number; limit: number; timeout: number }): Promise<TelegramUpdate[]> {
    const { offset, limit, timeout } = options;
    if (offset !== undefined && offset < 0) this.pending = this.pending.slice(offset);
    else if (offset !== undefined) this.pending = this.pending.filter((update) => update.update_id >= offset);
    this.wakePoll('conflict');
    if (this.pending.length === 0 && timeout > 0) {
      const outcome = await new Promise<PollEnd>((resolve) => {
        const timer = setTimeout(() => finish('stop'), timeout * 1000);
        const finish = (value: PollEnd) => {
          clearTimeout(timer);
          if (this.waitingPoll === finish) this.waitingPoll = null;
          resolve(value);
        };
        this.waitingPoll = finish;
      });
      if (outcome === 'conflict')
        throw new TelegramApiError(
          409,
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        );
      if (outcome === 'webhook') throw new TelegramApiError(409, webhookActive);
    }
    return this.pending.slice(0, limit);
  }

  /** Ends a waiting getUpdates (on stop, or when a webhook takes over). */
  wakePoll(outcome: PollEnd) {
    this.waitingPoll?.(outcome);
  }

  /** The message a reply points at, or a 400 unless the caller allowed sending without it. */
  replyTarget(chat: ChatState, messageId: number | undefined, allowWithout: boolean) {
    if (messageId === undefined) return undefined;
    const target = chat.messages.get(messageId);
    if (!target && !allowWithout) throw badRequest('message to be replied not found');
    return target;
  }
}
