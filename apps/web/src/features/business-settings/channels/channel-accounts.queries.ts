import {
  type ChannelAccountView,
  channelAccountList,
  channelAccountView,
  channelErrors,
  connectTelegramBody,
  type ErrorObject,
} from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { api, dataOrThrow } from '../../../shared/api-client';
import { errorText } from '../../../shared/i18n';

export type ChannelErrorKey = keyof typeof channelErrors;

/** The channel catalogue key whose English text the server answered, if any. */
export function channelErrorKeyOf(message: string | undefined): ChannelErrorKey | undefined {
  return (Object.keys(channelErrors) as ChannelErrorKey[]).find((key) => channelErrors[key] === message);
}

/** The locale's text for a failed channel call: the channel catalogue first, then the shared one. */
export function channelErrorText(t: TFunction, error: ErrorObject): string {
  const key = channelErrorKeyOf(error.message);
  return key ? t(`businessSettings.channels.errors.${key}`) : errorText(t, error);
}

/**
 * Checks a pasted bot token with the server's own contract: the locale key of what is
 * wrong, or the trimmed token to send.
 */
export function checkTelegramToken(token: string): { token: string } | { errorKey: string } {
  const parsed = connectTelegramBody.safeParse({ token });
  if (parsed.success) return { token: parsed.data.token };
  const key = channelErrorKeyOf(parsed.error.issues[0]?.message) ?? 'invalidToken';
  return { errorKey: `businessSettings.channels.errors.${key}` };
}

export const channelAccountsKey = ['business-settings', 'channel-accounts'] as const;

/** The client's connected channel accounts (Telegram bots, live-chat widgets, later the rest). */
export function channelAccountsQueryOptions() {
  return queryOptions({
    queryKey: channelAccountsKey,
    queryFn: async () =>
      dataOrThrow(await api.get('/api/channels/accounts', { schema: channelAccountList })).accounts,
  });
}

export function connectTelegram(token: string) {
  return api.post('/api/channels/telegram', { token }, { schema: channelAccountView });
}

/** Disconnects and removes one account; the server answers 204 with no body. */
export function disconnectChannelAccount(account: Pick<ChannelAccountView, 'id'>) {
  return api.request<null>(`/api/channels/accounts/${account.id}`, { method: 'DELETE' });
}
