import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown only if a screen is still loading after the router's pending delay. */
export function PagePending() {
  const { t } = useTranslation();
  return (
    <Center mih={240}>
      <Loader size="md" aria-label={t('common.loading')} />
    </Center>
  );
}
