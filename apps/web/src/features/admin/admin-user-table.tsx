import type { AdminUserView, ErrorObject } from '@app/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../shared/snackbar-store';
import { adminErrorText, adminUsersKey, adminUsersQueryOptions, deleteAdminUser } from './admin.queries';
import { AdminUserDrawer } from './admin-user-drawer';

/** The users table with search, status badges, the add/edit drawer and delete with confirmation. */
export function AdminUserTable() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useQuery(adminUsersQueryOptions(debounced));
  const [editing, setEditing] = useState<AdminUserView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminUserView | null>(null);
  const [deleteError, setDeleteError] = useState<ErrorObject | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    const result = await deleteAdminUser(deleting.id);
    setBusy(false);
    if (!result.ok) {
      setDeleteError(result.error);
      return;
    }
    setDeleting(null);
    showSnackbar('bottom', t('admin.users.deleted'), 'success');
    await queryClient.invalidateQueries({ queryKey: adminUsersKey });
  }

  return (
    <Card>
      <Group justify="space-between" mb="md" wrap="wrap">
        <TextInput
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          placeholder={t('admin.users.search')}
          aria-label={t('admin.users.search')}
          leftSection={<IconSearch size={16} />}
          w={320}
          maw="100%"
        />
        <Group gap="sm">
          {users.data ? (
            <Text size="sm" c="dimmed">
              {t('admin.users.count', { total: users.data.total, limit: users.data.userLimit })}
            </Text>
          ) : null}
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('admin.users.add')}
          </Button>
        </Group>
      </Group>
      {users.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {t('admin.users.loadFailed')}
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.users.columns.name')}</Table.Th>
              <Table.Th>{t('admin.users.columns.role')}</Table.Th>
              <Table.Th>{t('admin.users.columns.csPosition')}</Table.Th>
              <Table.Th>{t('admin.users.columns.group')}</Table.Th>
              <Table.Th>{t('admin.users.columns.status')}</Table.Th>
              <Table.Th>{t('admin.users.columns.agentStatus')}</Table.Th>
              <Table.Th ta="right">{t('admin.users.columns.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data?.content.map((user) => (
              <Table.Tr key={user.id} data-testid="admin-user-row">
                <Table.Td>
                  <Text fw={600} size="sm">
                    {user.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {user.email}
                  </Text>
                </Table.Td>
                <Table.Td>{t(`admin.roles.${user.role}`)}</Table.Td>
                <Table.Td>{user.csPosition ? t(`admin.positions.${user.csPosition}`) : '-'}</Table.Td>
                <Table.Td>{user.featuresAccessName ?? '-'}</Table.Td>
                <Table.Td>
                  <Badge color={user.status === 'ACTIVE' ? 'teal' : 'gray'} variant="light">
                    {t(`admin.status.${user.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Badge color={user.agentStatus === 'ONLINE' ? 'green' : 'gray'} variant="dot">
                    {t(`admin.status.${user.agentStatus}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {user.role === 'OWN' ? null : (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`${t('admin.users.edit')} ${user.name}`}
                        onClick={() => setEditing(user)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`${t('admin.users.delete')} ${user.name}`}
                        onClick={() => {
                          setDeleteError(null);
                          setDeleting(user);
                        }}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {users.data && users.data.content.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('admin.users.empty')}
        </Text>
      ) : null}

      <AdminUserDrawer
        user={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
      />
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('admin.users.deleteTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('admin.users.deleteBody', { name: deleting?.name ?? '' })}</Text>
          {deleteError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {adminErrorText(t, deleteError)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('admin.users.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={confirmDelete}>
              {t('admin.users.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
