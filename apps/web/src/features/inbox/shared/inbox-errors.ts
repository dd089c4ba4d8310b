import { type ErrorObject, inboxErrors } from '@app/contracts';
import type { TFunction } from 'i18next';
import { errorText } from '../../../shared/i18n';

export type InboxErrorKey = keyof typeof inboxErrors;

/** The inbox catalogue key whose English text the server sent, if any. */
export function inboxErrorKeyOf(message: string | undefined): InboxErrorKey | undefined {
  if (!message) return undefined;
  return (Object.keys(inboxErrors) as InboxErrorKey[]).find((key) => inboxErrors[key] === message);
}

/**
 * The text to show for a failed inbox call: the translation of the inbox's own error
 * texts (core-inbox §8), else the app's general rule (catalogue, server text, generic).
 */
export function inboxErrorText(t: TFunction, error: ErrorObject): string {
  const key = inboxErrorKeyOf(error.message);
  // A text added to the contracts before its translation still reads, in English.
  if (key) return t(`inbox.errors.${key}`, { defaultValue: error.message });
  return errorText(t, error);
}
