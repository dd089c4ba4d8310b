import { type Language, languages } from '@app/contracts';
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from './i18n';

/** ID / EN switch; the choice is stored and wins on the next visit. */
export function LanguageSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      size={size}
      radius="xl"
      aria-label={t('language.label')}
      value={currentLanguage()}
      onChange={(value) => changeLanguage(value as Language)}
      data={languages.map((language) => ({
        value: language,
        label: <span title={t(`language.${language}`)}>{t(`language.short.${language}`)}</span>,
      }))}
    />
  );
}
