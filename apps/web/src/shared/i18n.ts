import { defaultLanguage, type ErrorObject, errorKeyOf, type Language, languages } from '@app/contracts';
import i18next, { type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
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

type Strings = Record<string, unknown>;

/**
 * Locale files: `locales/<language>.json` and the feature files
 * `locales/features/<feature>.<language>.json`, each feature file holding one top-level key,
 * so that every feature writes its own strings. Indonesian, the default and the fallback of
 * every missing key, is bundled with the app for the shell and the inbox (the main file and
 * the inbox, push and client-switch files); the other features' Indonesian strings are one
 * chunk (feature-strings.ts) that every other screen loads with its code (`withFeatureStrings`,
 * see lazyPage). English is its own chunks, fetched when it is the stored choice or the user
 * switches to it, so a first visit loads one language.
 */
const bundledFiles = import.meta.glob<Strings>(
  ['../locales/id.json', '../locales/features/{inbox,push,clientSwitch}.id.json'],
  { eager: true, import: 'default' },
);
const fetchedFiles = import.meta.glob<Strings>(['../locales/en.json', '../locales/features/*.en.json'], {
  import: 'default',
});

/** The main file first, then the feature files joined in; names are `…/<language>.json` or `….<language>.json`. */
function bundleOf(language: Language, files: Record<string, Strings>): Strings {
  const bundle: Strings = {};
  const main = Object.entries(files).find(([file]) => file.endsWith(`/${language}.json`));
  if (main) Object.assign(bundle, main[1]);
  for (const [file, content] of Object.entries(files)) {
    if (file.endsWith(`.${language}.json`)) Object.assign(bundle, content);
  }
  return bundle;
}

function isBundled(language: Language): boolean {
  return Object.keys(bundledFiles).some((file) => file.endsWith(`/${language}.json`));
}

const loading = new Map<Language, Promise<void>>();

/** Adds a language's strings to i18next once, fetching its chunk when it is not bundled. */
export function loadLanguage(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = (async () => {
      const files = isBundled(language)
        ? bundledFiles
        : Object.fromEntries(
            await Promise.all(
              Object.entries(fetchedFiles)
                .filter(([file]) => file.endsWith(`${language}.json`))
                .map(async ([file, load]) => [file, await load()] as const),
            ),
          );
      i18next.addResourceBundle(language, 'translation', bundleOf(language, files), true, true);
    })();
    // A failed fetch (offline) may be retried by the next switch.
    pending.catch(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}

let featureStrings: Promise<void> | null = null;

/** Adds the Indonesian strings of the features beyond the shell and the inbox, fetching their chunk once. */
export function loadFeatureStrings(): Promise<void> {
  if (!featureStrings) {
    featureStrings = import('./feature-strings').then(({ featureStringFiles }) => {
      i18next.addResourceBundle(
        defaultLanguage,
        'translation',
        bundleOf(defaultLanguage, featureStringFiles),
        true,
        true,
      );
    });
    // A failed fetch (offline) may be retried by the next screen.
    featureStrings.catch(() => {
      featureStrings = null;
    });
  }
  return featureStrings;
}

/**
 * A screen's or dialog's code, resolved once the feature strings are in too, so that it never
 * shows a key: Indonesian is the fallback of English, and the user may switch to it there.
 */
export function withFeatureStrings<Module>(loading: Promise<Module>): Promise<Module> {
  return Promise.all([loading, loadFeatureStrings()]).then(([module]) => module);
}

/**
 * Starts i18next with the bundled language; when the stored choice is another one, its
 * chunk is fetched first, so the first screen already speaks it. Resolves when ready.
 */
export async function initI18n(): Promise<typeof i18next> {
  const lng = initialLanguage();
  await i18next.use(initReactI18next).init({
    resources: { [defaultLanguage]: { translation: bundleOf(defaultLanguage, bundledFiles) } },
    lng: defaultLanguage,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  if (lng !== defaultLanguage) {
    // Without its chunk (offline) the app still starts, in the fallback language.
    await loadLanguage(lng).catch((error: unknown) =>
      console.warn(`The ${lng} strings failed to load`, error),
    );
    await i18next.changeLanguage(lng);
  }
  document.documentElement.lang = lng;
  return i18next;
}

/** Switches the language, fetching its strings first if needed, and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(storageKeys.language, language);
  await loadLanguage(language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
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
