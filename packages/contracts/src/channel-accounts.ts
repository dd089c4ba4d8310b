import { z } from 'zod';
import { channelCodes } from './channels';
import type { Role } from './permissions';

/**
 * Connected channel accounts (commerce "Business settings → channel"): a Telegram bot, a
 * live-chat widget, later the other channels. Only owners and admins add or remove them.
 */
/** "Owner and admin: all features; only they can add channels" (commerce: roles), and the system admin. */
export const channelManagerRoles: ReadonlyArray<Role> = ['OWN', 'ADC', 'SAD'];

export const channelAccountStatuses = ['CONNECTED', 'NOT_CONNECTED', 'DISCONNECTED'] as const;
export type ChannelAccountStatus = (typeof channelAccountStatuses)[number];

export const channelAccountView = z.object({
  id: z.string().uuid(),
  channel: z.enum(channelCodes),
  /** The account as the channel names it: the bot's name, the widget's name. */
  name: z.string(),
  /** The account's handle on the channel (a Telegram bot's @username), when it has one. */
  handle: z.string().nullable(),
  status: z.enum(channelAccountStatuses),
  connectedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ChannelAccountView = z.infer<typeof channelAccountView>;

export const channelAccountList = z.object({ accounts: z.array(channelAccountView) });
export type ChannelAccountList = z.infer<typeof channelAccountList>;

/** A bot token as BotFather gives it: the bot's numeric id, a colon, then the secret part. */
export const telegramBotTokenPattern = /^\d{3,20}:[A-Za-z0-9_-]{20,80}$/;

/** The spec's channel error texts (commerce: channels). */
export const channelErrors = {
  invalidToken: 'Invalid token',
  tokenInUse: 'Token already used by another client',
  accountExists: 'Account already exists',
  duplicateChannel: 'Duplicate channel',
  connectionFailed: 'Connection failed',
  deletionFailed: 'Channel deletion failed',
  notFound: 'Channel account not found',
  /** Live-chat accounts come and go with their widget (the live chat pages). */
  managedElsewhere: 'This channel is managed on its own page',
} as const;

export const connectTelegramBody = z.object({
  token: z.string().trim().regex(telegramBotTokenPattern, channelErrors.invalidToken),
});
export type ConnectTelegramBody = z.infer<typeof connectTelegramBody>;

export const channelAccountIdParams = z.object({ id: z.string().uuid() });
