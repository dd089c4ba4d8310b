import type { OidcErrorKey } from '@app/contracts';
import { Alert, Button, Divider, Stack } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { oidcConfigQueryOptions, oidcStartHref } from './oidc-callback';

/** Why the last Google sign-in ended on this page, in the user's language. */
export function GoogleSignInError({ error }: { error: OidcErrorKey }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      radius="md"
      icon={<IconAlertCircle size={18} />}
      title={t('oidc.failedTitle')}
      role="alert"
      data-testid="oidc-error"
    >
      {t(`oidc.errors.${error}`)}
    </Alert>
  );
}

/** "Sign in with Google", under the password form; shown only when the server has it configured. */
export function GoogleSignInButton({ redirect }: { redirect: string | null }) {
  const { t } = useTranslation();
  const config = useQuery(oidcConfigQueryOptions());
  if (!config.data?.enabled) return null;
  return (
    <Stack gap="md" mt="md">
      <Divider label={t('oidc.or')} labelPosition="center" />
      <Button
        component="a"
        href={oidcStartHref(redirect)}
        variant="default"
        size="md"
        fullWidth
        leftSection={<IconBrandGoogle size={18} stroke={1.8} />}
        data-testid="google-sign-in"
      >
        {t('oidc.signInWithGoogle')}
      </Button>
    </Stack>
  );
}
