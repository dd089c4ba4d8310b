import {
  type AdminUserBody,
  type AdminUserView,
  adminUserRules,
  csPositions,
  type ErrorObject,
  passwordPolicy,
} from '@app/contracts';
import {
  Alert,
  Button,
  Drawer,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../shared/snackbar-store';
import { useSession } from '../../shared/use-session';
import {
  type AdminErrorKey,
  adminErrorKeyOf,
  adminErrorText,
  adminUsersKey,
  agentGroupsQueryOptions,
  featureAccessQueryOptions,
  saveAdminUser,
} from './admin.queries';

type Field = 'name' | 'email' | 'password' | 'confirmPassword' | 'csPosition' | 'featuresAccessName';
type FieldErrors = Partial<Record<Field, string>>;

const emptyForm = (): AdminUserBody => ({
  name: '',
  email: '',
  password: '',
  confirmPassword: '',
  role: 'USC',
  csPosition: 'CS_2',
  featuresAccessName: null,
  agentGroupIds: [],
  csTags: [],
  status: 'ACTIVE',
});

/** Server answers that belong to one field show under it. */
const serverErrorField: Partial<Record<AdminErrorKey | 'passwordFormat', Field>> = {
  nameRequired: 'name',
  emailInvalid: 'email',
  emailTaken: 'email',
  passwordNotMatch: 'confirmPassword',
  csPositionRequired: 'csPosition',
  csPositionNotAllowed: 'csPosition',
  featureAccessUnknown: 'featuresAccessName',
};

/** Client checks with the server's own contract; values are locale keys. */
function validate(values: AdminUserBody): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = adminUserRules.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      const key = adminErrorKeyOf(issue.message);
      errors[field] ??= key ? `admin.errors.${key}` : 'admin.form.required';
    }
  }
  // A new user may be left without a password when the e-mail already signs in to another
  // client (they become a member here); the server asks for one when it is a new person.
  if (values.password && !passwordPolicy.safeParse(values.password).success) {
    errors.password = 'errors.passwordFormat';
  }
  return errors;
}

/** The add/edit drawer with every field of an admin user (commerce §3, §5). */
export function AdminUserDrawer({
  user,
  opened,
  onClose,
}: {
  user: AdminUserView | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const groups = useQuery({ ...featureAccessQueryOptions(), enabled: opened });
  const agentGroups = useQuery({ ...agentGroupsQueryOptions(), enabled: opened });
  const [values, setValues] = useState<AdminUserBody>(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setFailure(null);
    setValues(
      user
        ? {
            ...emptyForm(),
            name: user.name,
            email: user.email,
            role: user.role === 'ADC' ? 'ADC' : 'USC',
            csPosition: user.csPosition,
            featuresAccessName: user.featuresAccessName,
            agentGroupIds: user.agentGroupIds,
            csTags: user.csTags,
            status: user.status,
          }
        : emptyForm(),
    );
  }, [opened, user]);

  const set = <K extends keyof AdminUserBody>(key: K, value: AdminUserBody[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const errorOf = (field: Field) => (errors[field] ? t(errors[field]) : undefined);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const found = validate(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSaving(true);
    const body = !values.password ? { ...values, password: undefined, confirmPassword: undefined } : values;
    const result = await saveAdminUser(user?.id ?? null, body);
    setSaving(false);
    if (result.ok) {
      showSnackbar('bottom', t('admin.users.saved'), 'success');
      await queryClient.invalidateQueries({ queryKey: adminUsersKey });
      onClose();
      return;
    }
    const key = adminErrorKeyOf(result.error.message);
    const field = key ? serverErrorField[key] : undefined;
    if (key && field) setErrors({ [field]: `admin.errors.${key}` });
    else setFailure(result.error);
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={<Text fw={650}>{t(user ? 'admin.form.editTitle' : 'admin.form.addTitle')}</Text>}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {failure ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {adminErrorText(t, failure)}
            </Alert>
          ) : null}
          <TextInput
            label={t('admin.form.name')}
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={errorOf('name')}
            required
          />
          <TextInput
            label={t('admin.form.email')}
            type="email"
            value={values.email}
            onChange={(event) => set('email', event.currentTarget.value)}
            error={errorOf('email')}
            autoComplete="off"
            required
          />
          <PasswordInput
            label={t('admin.form.password')}
            description={
              user
                ? t('admin.form.passwordEditHint')
                : `${t('changePassword.hint')} ${t('clientSwitch.existingAccountHint')}`
            }
            value={values.password ?? ''}
            onChange={(event) => set('password', event.currentTarget.value)}
            error={errorOf('password')}
            autoComplete="new-password"
            required={!user}
          />
          <PasswordInput
            label={t('admin.form.confirmPassword')}
            value={values.confirmPassword ?? ''}
            onChange={(event) => set('confirmPassword', event.currentTarget.value)}
            error={errorOf('confirmPassword')}
            autoComplete="new-password"
            required={!user}
          />
          <Select
            label={t('admin.form.role')}
            value={values.role}
            onChange={(value) => set('role', value === 'ADC' ? 'ADC' : 'USC')}
            allowDeselect={false}
            data={[
              { value: 'USC', label: t('admin.roles.USC') },
              { value: 'ADC', label: t('admin.roles.ADC'), disabled: session?.claims.role !== 'OWN' },
            ]}
          />
          <Select
            label={t('admin.form.csPosition')}
            description={t('admin.form.csPositionHint')}
            value={values.csPosition}
            onChange={(value) => set('csPosition', (value as AdminUserBody['csPosition']) ?? null)}
            data={csPositions.map((position) => ({
              value: position,
              label: t(`admin.positions.${position}`),
            }))}
            error={errorOf('csPosition')}
            allowDeselect={false}
            clearable
          />
          <Select
            label={t('admin.form.group')}
            value={values.featuresAccessName}
            onChange={(value) => set('featuresAccessName', value ?? null)}
            placeholder={t('admin.form.groupNone')}
            data={(groups.data ?? []).map((group) => group.name)}
            error={errorOf('featuresAccessName')}
            clearable
          />
          <MultiSelect
            label={t('admin.form.agentGroups')}
            value={values.agentGroupIds}
            onChange={(value) => set('agentGroupIds', value)}
            data={(agentGroups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            searchable
          />
          <TagsInput
            label={t('admin.form.csTags')}
            description={t('admin.form.csTagsHint')}
            value={values.csTags}
            onChange={(value) => set('csTags', value)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('admin.form.status')}
            </Text>
            <SegmentedControl
              value={values.status}
              onChange={(value) => set('status', value === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE')}
              data={[
                { value: 'ACTIVE', label: t('admin.status.ACTIVE') },
                { value: 'INACTIVE', label: t('admin.status.INACTIVE') },
              ]}
            />
          </Stack>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              {t('admin.users.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('admin.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
