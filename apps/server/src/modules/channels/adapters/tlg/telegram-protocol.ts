/**
 * What Telegram's webhook delivery and the product agree on (channel-protocols.md §4): the
 * header carrying the secret given to setWebhook, compared as it is (no signature).
 */
export const telegramSecretHeader = 'x-telegram-bot-api-secret-token';
