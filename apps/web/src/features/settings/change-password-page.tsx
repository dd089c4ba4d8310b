import {
  type ChangePasswordBody,
  type ErrorKey,
  type ErrorObject,
  errorKeyOf,
  passwordPolicy,
} from '@app/contracts';
import { Alert, Button, Card, Group, List, PasswordInput, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/i18n';
import { PageHeader } from '../../shared/page-header';
import { endSession } from '../../shared/session';
import { usePageTitle } from '../../shared/use-page-title';
import { changePassword } from '../identity/identity.queries';

type Field = keyof ChangePasswordBody;
type FieldErrors = Partial<Record<Field, string>>;

/** Client-side checks of core-inbox §5; each value is a locale key. */
function validate(values: ChangePasswordBody): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.currentPassword) errors.currentPassword = 'changePassword.currentRequired';
  if (!values.newPassword) errors.newPassword = 'changePassword.newRequired';
  else if (!passwordPolicy.safeParse(values.newPassword).success)
    errors.newPassword = 'errors.passwordFormat';
  if (!values.confirmPassword) errors.confirmPassword = 'changePassword.confirmRequired';
  else if (values.newPassword && values.confirmPassword !== values.newPassword) {
    errors.confirmPassword = 'errors.passwordMismatch';
  }
  return errors;
}

/** Server answers that belong to one field are shown under it rather than above the form. */
const serverErrorField: Partial<Record<ErrorKey, Field>> = {
  currentPasswordIncorrect: 'currentPassword',
  passwordFormat: 'newPassword',
  passwordAlreadyUsed: 'newPassword',
  passwordMismatch: 'confirmPassword',
};

/** The user's own password change; success signs out everywhere (core-inbox §8). */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  usePageTitle('changePassword.pageTitle');
  const [values, setValues] = useState<ChangePasswordBody>({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const field = (name: Field) => ({
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setFieldErrors((current) => ({ ...current, [name]: undefined }));
    },
    error: fieldErrors[name] ? t(fieldErrors[name]) : undefined,
    name,
    size: 'md' as const,
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const errors = validate(values);
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;

    setSubmitting(true);
    const result = await changePassword(values);
    setSubmitting(false);
    if (result.ok) {
      // The server has revoked every session of this user; sign out here and say why.
      endSession('password-changed');
      return;
    }
    const key = errorKeyOf(result.error.message);
    const target = key ? serverErrorField[key] : undefined;
    if (target) setFieldErrors({ [target]: `errors.${key}` });
    else setFailure(result.error);
  }

  return (
    <Stack gap={0} maw={1040}>
      <PageHeader title={t('changePassword.title')} description={t('changePassword.subtitle')} />
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Card w={520} maw="100%">
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              {failure ? (
                <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                  {errorText(t, failure)}
                </Alert>
              ) : null}
              <PasswordInput
                {...field('currentPassword')}
                label={t('changePassword.current')}
                autoComplete="current-password"
                leftSection={<IconLock size={18} stroke={1.6} />}
              />
              <PasswordInput
                {...field('newPassword')}
                label={t('changePassword.new')}
                autoComplete="new-password"
                description={t('changePassword.hint')}
                leftSection={<IconLock size={18} stroke={1.6} />}
              />
              <PasswordInput
                {...field('confirmPassword')}
                label={t('changePassword.confirm')}
                autoComplete="new-password"
                leftSection={<IconLock size={18} stroke={1.6} />}
              />
              <Group justify="flex-end" mt="xs">
                <Button type="submit" loading={submitting} leftSection={<IconShieldCheck size={18} />}>
                  {t('changePassword.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
        <Card w={340} maw="100%" bg="var(--mantine-color-brand-0)" withBorder={false} shadow="none">
          <Group gap="sm" mb="sm" wrap="nowrap">
            <ThemeIcon variant="white" size={32} radius="md" aria-hidden>
              <IconInfoCircle size={18} />
            </ThemeIcon>
            <Text fw={650} size="sm">
              {t('changePassword.tipsTitle')}
            </Text>
          </Group>
          <List size="sm" spacing={6} c="brand.9">
            <List.Item>{t('changePassword.tipLength')}</List.Item>
            <List.Item>{t('changePassword.tipUnique')}</List.Item>
            <List.Item>{t('changePassword.tipSignOut')}</List.Item>
          </List>
        </Card>
      </Group>
    </Stack>
  );
}
