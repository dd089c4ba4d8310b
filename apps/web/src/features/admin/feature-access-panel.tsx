import {
  type ErrorObject,
  type FeatureAccessGroupView,
  featureAccessMenus,
  featureAccessName,
  type PermissionName,
} from '@app/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Drawer,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../shared/snackbar-store';
import {
  adminErrorKeyOf,
  adminErrorText,
  deleteFeatureAccessGroup,
  featureAccessKey,
  featureAccessQueryOptions,
  saveFeatureAccessGroup,
} from './admin.queries';

/** Access roles (feature-access groups): the list, the editor with its menu checklist, delete. */
export function FeatureAccessPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const groups = useQuery(featureAccessQueryOptions());
  const [editing, setEditing] = useState<FeatureAccessGroupView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FeatureAccessGroupView | null>(null);
  const [deleteError, setDeleteError] = useState<ErrorObject | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    const result = await deleteFeatureAccessGroup(deleting.id);
    if (!result.ok) {
      setDeleteError(result.error);
      return;
    }
    setDeleting(null);
    showSnackbar('bottom', t('admin.groups.deleted'), 'success');
    await queryClient.invalidateQueries({ queryKey: featureAccessKey });
  }

  return (
    <Card>
      <Group justify="space-between" mb="md">
        <Text size="sm" c="dimmed">
          {t('admin.groups.refreshNote')}
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('admin.groups.add')}
        </Button>
      </Group>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.groups.name')}</Table.Th>
            <Table.Th>{t('admin.groups.menus')}</Table.Th>
            <Table.Th>{t('admin.groups.users')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.data?.map((group) => (
            <Table.Tr key={group.id}>
              <Table.Td fw={600}>{group.name}</Table.Td>
              <Table.Td>
                {group.allMenus ? (
                  <Badge variant="light">{t('admin.groups.allMenus')}</Badge>
                ) : (
                  <Group gap={4}>
                    {group.menus.map((menu) => (
                      <Badge key={menu} variant="outline" color="gray">
                        {t(`admin.menus.${menu}`)}
                      </Badge>
                    ))}
                  </Group>
                )}
              </Table.Td>
              <Table.Td>{group.userCount}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`${t('admin.users.edit')} ${group.name}`}
                    onClick={() => setEditing(group)}
                  >
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`${t('admin.users.delete')} ${group.name}`}
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(group);
                    }}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {groups.data && groups.data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('admin.groups.empty')}
        </Text>
      ) : null}
      {editing !== null ? (
        <FeatureAccessDrawer group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('admin.groups.deleteTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('admin.groups.deleteBody', { name: deleting?.name ?? '' })}</Text>
          {deleteError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {adminErrorText(t, deleteError)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('admin.users.cancel')}
            </Button>
            <Button color="red" onClick={confirmDelete}>
              {t('admin.users.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

/** The editor of one group: name (max 15), all-menus toggle and the menu checklist. */
function FeatureAccessDrawer({
  group,
  onClose,
}: {
  group: FeatureAccessGroupView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(group?.name ?? '');
  const [allMenus, setAllMenus] = useState(group?.allMenus ?? false);
  const [menus, setMenus] = useState<string[]>(group?.menus ?? []);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ErrorObject | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = featureAccessName.safeParse(name);
    if (!parsed.success) {
      const key = adminErrorKeyOf(parsed.error.issues[0]?.message);
      setNameError(key ? `admin.errors.${key}` : 'admin.form.required');
      return;
    }
    const result = await saveFeatureAccessGroup(group?.id ?? null, {
      name,
      allMenus,
      menus: menus as PermissionName[],
    });
    if (result.ok) {
      showSnackbar('bottom', t('admin.groups.saved'), 'success');
      await queryClient.invalidateQueries({ queryKey: featureAccessKey });
      onClose();
      return;
    }
    const key = adminErrorKeyOf(result.error.message);
    if (key === 'nameRequired' || key === 'nameTooLong' || key === 'featureAccessNameTaken') {
      setNameError(`admin.errors.${key}`);
    } else setFailure(result.error);
  }

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      title={<Text fw={650}>{t(group ? 'admin.groups.editTitle' : 'admin.groups.addTitle')}</Text>}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {adminErrorText(t, failure)}
            </Alert>
          ) : null}
          <TextInput
            label={t('admin.groups.name')}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            error={nameError ? t(nameError) : undefined}
            required
          />
          <Switch
            label={t('admin.groups.allMenus')}
            checked={allMenus}
            onChange={(event) => setAllMenus(event.currentTarget.checked)}
          />
          <Checkbox.Group
            label={t('admin.groups.menus')}
            value={allMenus ? [...featureAccessMenus] : menus}
            onChange={setMenus}
          >
            <Stack gap="xs" mt="xs">
              {featureAccessMenus.map((menu) => (
                <Checkbox key={menu} value={menu} label={t(`admin.menus.${menu}`)} disabled={allMenus} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Text size="xs" c="dimmed">
            {t('admin.groups.refreshNote')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.users.cancel')}
            </Button>
            <Button type="submit">{t('admin.form.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
