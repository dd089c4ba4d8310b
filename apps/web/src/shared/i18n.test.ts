// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from './storage-keys';

/** A fresh i18next and i18n module per test: both keep their state at module level. */
async function freshModules() {
  vi.resetModules();
  const i18n = await import('./i18n');
  const { default: i18next } = await import('i18next');
  return { i18n, i18next };
}

describe('i18n', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.lang = '';
  });

  it('starts in Indonesian with only the Indonesian strings, main and feature files joined', async () => {
    const { i18n, i18next } = await freshModules();
    await i18n.initI18n();
    expect(i18n.currentLanguage()).toBe('id');
    expect(document.documentElement.lang).toBe('id');
    expect(i18next.t('common.close')).toBe('Tutup');
    expect(i18next.t('inbox.filters.created')).toBe('Tanggal dibuat');
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it("keeps the other features' Indonesian strings for the screens that show them", async () => {
    const { i18n, i18next } = await freshModules();
    await i18n.initI18n();
    expect(i18next.exists('chatRoom.pageTitle')).toBe(false);
    const module = { screen: 'chat room' };
    expect(await i18n.withFeatureStrings(Promise.resolve(module))).toBe(module);
    expect(i18next.t('chatRoom.pageTitle')).toBe('Ruang chat');
    expect(i18next.t('inbox.filters.created')).toBe('Tanggal dibuat');

    await i18n.changeLanguage('en');
    expect(i18next.t('chatRoom.pageTitle')).toBe('Chat room');
  });

  it('fetches English on the switch, then speaks it and remembers the choice', async () => {
    const { i18n, i18next } = await freshModules();
    await i18n.initI18n();
    await i18n.changeLanguage('en');
    expect(i18n.currentLanguage()).toBe('en');
    expect(i18next.t('common.close')).toBe('Close');
    expect(i18next.t('inbox.filters.created')).toBe('Created date');
    expect(localStorage.getItem(storageKeys.language)).toBe('en');
    expect(document.documentElement.lang).toBe('en');

    await i18n.changeLanguage('id');
    expect(i18next.t('common.close')).toBe('Tutup');
    expect(localStorage.getItem(storageKeys.language)).toBe('id');
  });

  it('starts in a stored English with its strings loaded before the first screen', async () => {
    localStorage.setItem(storageKeys.language, 'en');
    const { i18n, i18next } = await freshModules();
    await i18n.initI18n();
    expect(i18n.currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18next.t('inbox.filters.created')).toBe('Created date');
  });

  it('falls back to Indonesian for a key English lacks', async () => {
    const { i18n, i18next } = await freshModules();
    await i18n.initI18n();
    await i18n.changeLanguage('en');
    i18next.addResource('id', 'translation', 'onlyIndonesian', 'Hanya bahasa Indonesia');
    expect(i18next.t('onlyIndonesian')).toBe('Hanya bahasa Indonesia');
  });
});
