/** App version kept in the client; a stored version that differs reloads once (core-inbox §4). */
export const appVersion = '1.23.1';
export const defaultTimezone = 'Asia/Jakarta';
export const defaultLanguage = 'id';
export const languages = ['id', 'en'] as const;
export type Language = (typeof languages)[number];
export const snackbarTimeoutMs = 5000;
export const infoDialogMaxWidth = 464;
export const chunkLoadTimeoutMs = 120_000;
