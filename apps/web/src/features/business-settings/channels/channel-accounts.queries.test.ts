import { channelErrors, errorMessages } from '@app/contracts';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/features/businessSettings.en.json';
import id from '../../../locales/features/businessSettings.id.json';
import mainId from '../../../locales/id.json';
import { channelErrorKeyOf, channelErrorText, checkTelegramToken } from './channel-accounts.queries';

const t = i18next.createInstance();

beforeAll(async () => {
  await t.init({
    lng: 'id',
    resources: { id: { translation: { ...mainId, ...id } }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

const error = (statusCode: number, message: string) => ({ statusCode, error: 'error', message });

/** Every key path of a nested strings object, `a.b.c`. */
function keysOf(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner !== null ? keysOf(inner, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('channel error texts', () => {
  it('has an Indonesian and an English text for every channel error of the contract', () => {
    for (const key of Object.keys(channelErrors)) {
      expect(id.businessSettings.channels.errors).toHaveProperty(key);
      expect(en.businessSettings.channels.errors).toHaveProperty(key);
    }
  });

  it('finds the catalogue key of each server message and nothing for other messages', () => {
    expect(channelErrorKeyOf('Token already used by another client')).toBe('tokenInUse');
    expect(channelErrorKeyOf('Channel deletion failed')).toBe('deletionFailed');
    expect(channelErrorKeyOf('Something else')).toBeUndefined();
    expect(channelErrorKeyOf(undefined)).toBeUndefined();
  });

  it('translates the channel answers, then the shared ones, and keeps any other message as sent', () => {
    const tr = t.getFixedT('id');
    expect(channelErrorText(tr, error(409, 'Duplicate channel'))).toBe('Channel ini sudah terhubung');
    expect(channelErrorText(tr, error(502, 'Connection failed'))).toBe(
      'Koneksi gagal. Periksa token lalu coba lagi.',
    );
    expect(channelErrorText(t.getFixedT('en'), error(409, 'Account already exists'))).toBe(
      'This account is already connected',
    );
    expect(channelErrorText(tr, error(403, 'Bot is paused by the owner'))).toBe('Bot is paused by the owner');
    expect(channelErrorText(tr, error(500, errorMessages.generic))).toBe(mainId.errors.generic);
  });
});

describe('checkTelegramToken', () => {
  it('accepts a BotFather token, trimmed', () => {
    expect(checkTelegramToken('  123456789:AAHk3xq_ZbW-7yLr0p2Q9sTuVwXyZ012345 ')).toEqual({
      token: '123456789:AAHk3xq_ZbW-7yLr0p2Q9sTuVwXyZ012345',
    });
  });

  it('names the invalid-token text for anything else', () => {
    for (const wrong of ['', 'not-a-token', '123456789:short', 'abc:AAHk3xq_ZbW-7yLr0p2Q9sTuVwXyZ012345']) {
      expect(checkTelegramToken(wrong)).toEqual({
        errorKey: 'businessSettings.channels.errors.invalidToken',
      });
    }
    expect(t.t('businessSettings.channels.errors.invalidToken')).toBe('Token tidak valid');
  });
});

describe('business settings strings', () => {
  it('has the same keys in Indonesian and English, plural forms aside', () => {
    const plain = (keys: string[]) => keys.map((key) => key.replace(/_(one|other)$/, '')).sort();
    expect([...new Set(plain(keysOf(en)))]).toEqual([...new Set(plain(keysOf(id)))]);
  });
});
