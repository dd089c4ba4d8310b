import { Tabs } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/page-header';
import { usePageTitle } from '../../shared/use-page-title';
import { ChannelAccountsPanel } from './channels/channel-accounts-panel';

/**
 * /setting/store (SETTING_STORE): the business settings of commerce §2. Only the channel
 * tab is built; the others (business info, bank account, delivery) join this list when
 * their screens exist, and the tab lives in `?tab=` so first-time guidance can link to it.
 */
export function BusinessSettingsPage() {
  const { t } = useTranslation();
  usePageTitle('businessSettings.pageTitle');
  const navigate = useNavigate();
  const tab = useSearch({ from: '/app/setting/store', select: (search) => search.tab ?? 'channel' });

  return (
    <>
      <PageHeader title={t('businessSettings.title')} description={t('businessSettings.subtitle')} />
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value === 'channel')
            void navigate({ to: '/setting/store', search: { tab: value }, replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="channel" leftSection={<IconPlugConnected size={16} />}>
            {t('businessSettings.tabs.channel')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="channel">
          <ChannelAccountsPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
