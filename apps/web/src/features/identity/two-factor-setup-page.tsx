import type { ErrorObject } from '@app/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/page-header';
import { getSession } from '../../shared/session';
import { usePageTitle } from '../../shared/use-page-title';
import {
  activateMfa,
  deactivateMfa,
  mfaErrorText,
  mfaStatusQueryKey,
  mfaStatusQueryOptions,
  setMfaPolicy,
  startActivation,
} from './mfa.queries';
import { MfaSetupPanel, RecoveryCodes } from './mfa-setup-panel';

/** Turning 2-step off takes a code (or a recovery code), so a borrowed session cannot. */
function DeactivateForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) return;
    setSubmitting(true);
    setFailure(null);
    const result = await deactivateMfa(code.trim());
    setSubmitting(false);
    if (result.ok) onDone();
    else setFailure(result.error);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={360}>
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="mfa-error"
          >
            {mfaErrorText(t, failure)}
          </Alert>
        ) : null}
        <TextInput
          label={t('mfa.deactivateLabel')}
          description={t('mfa.deactivateHint')}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          autoComplete="one-time-code"
          name="deactivate-code"
        />
        <Group>
          <Button
            type="submit"
            color="red"
            variant="light"
            loading={submitting}
            leftSection={<IconShieldOff size={18} />}
          >
            {t('mfa.deactivate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The owner's switch: every user of the client must set up 2-step at their next sign-in. */
function RequireForEveryone({ required, onChanged }: { required: boolean; onChanged: () => void }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [saving, setSaving] = useState(false);
  return (
    <Card maw={640}>
      <Stack gap="xs">
        <Switch
          checked={required}
          disabled={saving}
          label={t('mfa.requireLabel')}
          description={t('mfa.requireHint')}
          data-testid="mfa-require-switch"
          onChange={async (event) => {
            setSaving(true);
            setFailure(null);
            const result = await setMfaPolicy(event.currentTarget.checked);
            setSaving(false);
            if (result.ok) onChanged();
            else setFailure(result.error);
          }}
        />
        {failure ? (
          <Text c="red" size="sm" role="alert">
            {mfaErrorText(t, failure)}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** /setting/two-factor-verification-setup: turn 2-step on or off; the owner's switch. */
export function TwoFactorSetupPage() {
  const { t } = useTranslation();
  usePageTitle('mfa.pageTitle');
  const queryClient = useQueryClient();
  const status = useQuery(mfaStatusQueryOptions());
  const [settingUp, setSettingUp] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const isOwner = getSession()?.claims.role === 'OWN';
  const refresh = () => queryClient.invalidateQueries({ queryKey: mfaStatusQueryKey });

  let body: React.ReactNode;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes codes={recoveryCodes}>
        <Button onClick={() => setRecoveryCodes(null)}>{t('mfa.done')}</Button>
      </RecoveryCodes>
    );
  } else if (status.isPending) {
    body = <Loader size="sm" aria-label={t('mfa.loading')} />;
  } else if (status.isError) {
    body = (
      <Alert color="red" variant="light" role="alert">
        {t('errors.failedFetchingData')}
      </Alert>
    );
  } else if (status.data.enabled) {
    body = <DeactivateForm onDone={() => void refresh()} />;
  } else if (settingUp) {
    body = (
      <MfaSetupPanel
        load={startActivation}
        activate={activateMfa}
        onActivated={(codes) => {
          setSettingUp(false);
          setRecoveryCodes(codes);
          void refresh();
        }}
      />
    );
  } else {
    body = (
      <Group>
        <Button onClick={() => setSettingUp(true)} leftSection={<IconShieldCheck size={18} />}>
          {t('mfa.turnOn')}
        </Button>
      </Group>
    );
  }

  return (
    <Stack gap="lg" maw={1040}>
      <PageHeader title={t('mfa.title')} description={t('mfa.subtitle')} />
      <Card maw={640}>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} fz="lg">
              {t('mfa.appTitle')}
            </Title>
            {status.data ? (
              <Badge color={status.data.enabled ? 'green' : 'gray'} data-testid="mfa-status">
                {status.data.enabled ? t('mfa.on') : t('mfa.off')}
              </Badge>
            ) : null}
          </Group>
          {body}
        </Stack>
      </Card>
      {isOwner && status.data ? (
        <RequireForEveryone required={status.data.clientRequiresMfa} onChanged={() => void refresh()} />
      ) : null}
    </Stack>
  );
}
