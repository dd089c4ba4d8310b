import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab after the screen, in the current language. */
export function usePageTitle(titleKey: string): void {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language is a dependency on purpose: the title must follow a language switch.
  useEffect(() => {
    document.title = `${t(titleKey)} · ${t('brand.name')}`;
  }, [t, titleKey, i18n.resolvedLanguage]);
}
