import { type ErrorObject, inboxErrors } from '@app/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/i18n';

type InboxErrorKey = keyof typeof inboxErrors;

/**
 * The text for a failed inbox call: the inbox's own error texts in the user's language,
 * then the shared catalogue (errorText) for everything else.
 */
export function useChatErrorText(): (error: ErrorObject) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: ErrorObject) => {
      const key = (Object.keys(inboxErrors) as InboxErrorKey[]).find(
        (candidate) => inboxErrors[candidate] === error.message,
      );
      return key ? t(`chatRoom.errors.${key}`) : errorText(t, error);
    },
    [t],
  );
}
