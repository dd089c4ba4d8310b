import { Button } from '@mantine/core';
import { IconAlertTriangle, IconCloudOff, IconRefresh } from '@tabler/icons-react';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StatusScreen } from '../shared/status-screen';
import { isChunkLoadError } from './lazy-page';

/**
 * What a route shows when it fails. A screen whose code did not load gets a reload
 * action (a new deploy or a dropped connection); anything else can be retried in place.
 */
export function RouteErrorView({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  if (isChunkLoadError(error)) {
    return (
      <StatusScreen
        color="orange"
        icon={<IconCloudOff size={44} stroke={1.5} />}
        title={t('routeError.chunkTitle')}
        description={t('routeError.chunkDescription')}
        actions={
          <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
        }
      />
    );
  }
  return (
    <StatusScreen
      color="red"
      icon={<IconAlertTriangle size={44} stroke={1.5} />}
      title={t('routeError.title')}
      description={t('routeError.description')}
      actions={
        <Button
          leftSection={<IconRefresh size={16} />}
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t('common.retry')}
        </Button>
      }
    />
  );
}
