import { defaultLanguage, type ErrorObject, errorKeyOf, type Language, languages } from '@app/contracts';
import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import id from '../locales/id.json';
import { storageKeys } from './storage-keys';

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as ReadonlyArray<string>).includes(value);
}

/** The stored choice wins, then the configured default, then Indonesian (core-inbox §1). */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(storageKeys.language);
  if (isLanguage(stored)) return stored;
  const configured = import.meta.env.VITE_DEFAULT_LANGUAGE;
  if (isLanguage(configured)) return configured;
  return defaultLanguage;
}

/**
 * Feature locale files, `locales/features/<feature>.<language>.json`, each holding one
 * top-level key; they join the main file so that every feature writes its own strings.
 */
const featureLocales = import.meta.glob<Record<string, unknown>>('../locales/features/*.json', {
  eager: true,
  import: 'default',
});

function bundleOf(language: Language, base: Record<string, unknown>): Record<string, unknown> {
  const bundle = { ...base };
  for (const [file, content] of Object.entries(featureLocales)) {
    if (file.endsWith(`.${language}.json`)) Object.assign(bundle, content);
  }
  return bundle;
}

/** Starts i18next with both locales bundled: they are small, and no screen waits for them. */
export function initI18n(): typeof i18next {
  const lng = initialLanguage();
  void i18next.use(initReactI18next).init({
    resources: { id: { translation: bundleOf('id', id) }, en: { translation: bundleOf('en', en) } },
    lng,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  document.documentElement.lang = lng;
  return i18next;
}

/** Switches the language and remembers the choice for the next visit. */
export function changeLanguage(language: Language): void {
  localStorage.setItem(storageKeys.language, language);
  document.documentElement.lang = language;
  void i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.resolvedLanguage) ? i18next.resolvedLanguage : defaultLanguage;
}

/**
 * The text to show for a failed call: the catalogue's translation when the server's
 * message is in the catalogue, the server's own message otherwise, and the generic text
 * when the server gave nothing useful.
 */
export function errorText(t: TFunction, error: ErrorObject): string {
  const key = errorKeyOf(error.message);
  if (key) return t(`errors.${key}`);
  if (error.statusCode === 429) return t('errors.tooManyRequests');
  if (error.statusCode >= 500 || !error.message) return t('errors.generic');
  return error.message;
}
