import { inboxErrors } from '@app/contracts';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/features/inbox.en.json';
import id from '../../../locales/features/inbox.id.json';
import { inboxErrorKeyOf, inboxErrorText } from './inbox-errors';

describe('inbox error texts', () => {
  beforeAll(async () => {
    await i18next.init({
      lng: 'id',
      resources: { id: { translation: id }, en: { translation: en } },
      interpolation: { escapeValue: false },
    });
  });

  it('has every inbox error of the contracts translated in both languages', () => {
    for (const key of Object.keys(inboxErrors)) {
      expect(id.inbox.errors, `id: ${key}`).toHaveProperty(key);
      expect(en.inbox.errors, `en: ${key}`).toHaveProperty(key);
    }
  });

  it('shows the server text of the download limit in the user language', () => {
    const error = { statusCode: 400, error: 'Bad Request', message: inboxErrors.downloadRange };
    expect(inboxErrorKeyOf(error.message)).toBe('downloadRange');
    expect(inboxErrorText(i18next.t, error)).toBe('Unduhan riwayat chat maksimal 31 hari');
  });

  it('keeps a message it does not know as the server gave it', () => {
    const error = { statusCode: 400, error: 'Bad Request', message: 'Invalid cursor' };
    expect(inboxErrorText(i18next.t, error)).toBe('Invalid cursor');
  });
});
