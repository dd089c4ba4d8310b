import { Tabs } from '@mantine/core';
import { IconShieldLock, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/page-header';
import { usePageTitle } from '../../shared/use-page-title';
import { AdminUserTable } from './admin-user-table';
import { FeatureAccessPanel } from './feature-access-panel';

/** /setting/admin: the client's users and its access roles (commerce §2, §6). */
export function AdminUsersPage() {
  const { t } = useTranslation();
  usePageTitle('admin.pageTitle');
  return (
    <>
      <PageHeader title={t('admin.title')} description={t('admin.subtitle')} />
      <Tabs defaultValue="users" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
            {t('admin.tabs.users')}
          </Tabs.Tab>
          <Tabs.Tab value="roles" leftSection={<IconShieldLock size={16} />}>
            {t('admin.tabs.roles')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <AdminUserTable />
        </Tabs.Panel>
        <Tabs.Panel value="roles">
          <FeatureAccessPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
