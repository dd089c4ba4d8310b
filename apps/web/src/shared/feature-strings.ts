/**
 * The Indonesian strings of the features beyond the shell and the inbox, joined in one chunk
 * that `loadFeatureStrings` (i18n.ts) fetches with the first screen that may show them. The
 * files left out here are the ones i18n.ts bundles with the app; the two lists go together.
 */
export const featureStringFiles = import.meta.glob<Record<string, unknown>>(
  ['../locales/features/*.id.json', '!../locales/features/{inbox,push,clientSwitch}.id.json'],
  { eager: true, import: 'default' },
);
