// The Bot API objects the Telegram simulator hands out, with Telegram's own (snake_case) field
// names, so that an adapter written against them reads the real thing unchanged.

/** The header Telegram puts a webhook's `secret_token` in (lower-case, as Node presents it). */
export { telegramSecretHeader } from './telegram-protocol';

/** A Telegram user or bot (https://core.telegram.org/bots/api#user). */
export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  /** The three below only come back from getMe. */
  can_join_groups?: boolean;
  can_read_all_group_messages?: boolean;
  supports_inline_queries?: boolean;
}

/** A chat; the simulator only has private chats, whose id is the customer's user id. */
export interface TelegramChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
}

/** One size of a photo; a message's `photo` lists them smallest first, largest last. */
export interface TelegramPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

/** A general file sent as a document. */
export interface TelegramDocument {
  file_id: string;
  file_unique_id: string;
  file_name?: string;
  mime_type?: string;
  file_size?: number;
}

/** A message; `message_id` is unique only within its chat. */
export interface TelegramMessage {
  message_id: number;
  from?: TelegramUser;
  chat: TelegramChat;
  /** Unix time, seconds. */
  date: number;
  text?: string;
  caption?: string;
  photo?: TelegramPhotoSize[];
  document?: TelegramDocument;
  reply_to_message?: TelegramMessage;
}

/** A member's state in a chat; for a private chat with a bot, `kicked` means the user blocked it. */
export interface TelegramChatMember {
  user: TelegramUser;
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  until_date?: number;
}

/** A change of the bot's own membership in a chat (the user blocked or restarted the bot). */
export interface TelegramChatMemberUpdated {
  chat: TelegramChat;
  from: TelegramUser;
  date: number;
  old_chat_member: TelegramChatMember;
  new_chat_member: TelegramChatMember;
}

/** One incoming update; exactly one of the optional fields is present. */
export interface TelegramUpdate {
  update_id: number;
  message?: TelegramMessage;
  edited_message?: TelegramMessage;
  my_chat_member?: TelegramChatMemberUpdated;
}

/** A file ready to be downloaded from `/file/bot<token>/<file_path>`. */
export interface TelegramFile {
  file_id: string;
  file_unique_id: string;
  file_size?: number;
  file_path?: string;
}

/** A refusal in the Bot API's terms: it becomes `{ok:false, error_code, description, parameters?}`. */
export class TelegramApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
    this.name = 'TelegramApiError';
  }
}

/** Bad Request with Telegram's prefix, which clients match on. */
export const badRequest = (reason: string) => new TelegramApiError(400, `Bad Request: ${reason}`);

/** The customer as both the message's `from` and its private `chat`. */
export interface TelegramCustomer {
  chatId: number;
  firstName: string;
  lastName?: string;
  username?: string;
}

/** The customer as a Telegram user (clients of an Indonesian shop send `language_code: 'id'`). */
export function customerUser(customer: TelegramCustomer): TelegramUser {
  return {
    id: customer.chatId,
    is_bot: false,
    first_name: customer.firstName,
    ...(customer.lastName ? { last_name: customer.lastName } : {}),
    ...(customer.username ? { username: customer.username } : {}),
    language_code: 'id',
  };
}

/** The private chat between the bot and the customer. */
export function customerChat(customer: TelegramCustomer): TelegramChat {
  return {
    id: customer.chatId,
    first_name: customer.firstName,
    ...(customer.lastName ? { last_name: customer.lastName } : {}),
    ...(customer.username ? { username: customer.username } : {}),
    type: 'private',
  };
}

/** Unix seconds now, the unit of every Telegram date. */
export const unixNow = () => Math.floor(Date.now() / 1000);

/**
 * A customer's text message as Telegram delivers it, built without a simulator: the bench
 * posts these to the server's webhook itself so that it can time the acknowledgement.
 */
export function telegramTextUpdate(input: {
  updateId: number;
  messageId: number;
  chatId: number;
  firstName: string;
  text: string;
  date?: number;
}): TelegramUpdate {
  const customer = { chatId: input.chatId, firstName: input.firstName };
  return {
    update_id: input.updateId,
    message: {
      message_id: input.messageId,
      from: customerUser(customer),
      chat: customerChat(customer),
      date: input.date ?? unixNow(),
      text: input.text,
    },
  };
}
