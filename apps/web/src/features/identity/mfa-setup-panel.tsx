import { type ErrorObject, type MfaSetupResponse, mfaCodeLength } from '@app/contracts';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Loader,
  PinInput,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconAlertCircle, IconCopy, IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../shared/api-client';
import { mfaErrorText } from './mfa.queries';

/** The six-digit field every 2-step screen uses; the browser may offer the code itself. */
export function MfaCodeInput(props: { value: string; onChange: (value: string) => void; error?: boolean }) {
  const { t } = useTranslation();
  return (
    <PinInput
      length={mfaCodeLength}
      type="number"
      oneTimeCode
      size="md"
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      aria-label={t('mfa.codeLabel')}
      data-testid="mfa-code"
    />
  );
}

/**
 * Scan the QR (or type the secret), then confirm with the first code: the same steps for
 * the settings page and the forced activation, which differ only in how they call.
 */
export function MfaSetupPanel(props: {
  load: () => Promise<ApiResult<MfaSetupResponse>>;
  activate: (code: string) => Promise<ApiResult<{ recoveryCodes: string[] }>>;
  onActivated: (recoveryCodes: string[]) => void;
}) {
  const { t } = useTranslation();
  const { load, activate, onActivated } = props;
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [code, setCode] = useState('');
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let current = true;
    void load().then((result) => {
      if (!current) return;
      if (result.ok) setSetup(result.data);
      else setFailure(result.error);
    });
    return () => {
      current = false;
    };
  }, [load]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.length !== mfaCodeLength) {
      setFailure({ statusCode: 400, error: 'Bad Request', message: t('mfa.codeRequired') });
      return;
    }
    setSubmitting(true);
    setFailure(null);
    const result = await activate(code);
    setSubmitting(false);
    if (result.ok) onActivated(result.data.recoveryCodes);
    else {
      setFailure(result.error);
      setCode('');
    }
  }

  const alert = failure ? (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      role="alert"
      data-testid="mfa-error"
    >
      {mfaErrorText(t, failure)}
    </Alert>
  ) : null;
  if (!setup) return alert ?? <Loader size="sm" aria-label={t('mfa.loading')} />;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {alert}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Image src={setup.qrDataUrl} alt={t('mfa.qrAlt')} w={200} h={200} radius="md" />
          <Stack gap="xs">
            <Text size="sm">{t('mfa.scanHint')}</Text>
            <Text size="sm" c="dimmed">
              {t('mfa.secretHint')}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code data-testid="mfa-secret" style={{ wordBreak: 'break-all' }}>
                {setup.secret}
              </Code>
              <CopyButton value={setup.secret}>
                {({ copied, copy }) => (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={copy}
                    leftSection={<IconCopy size={14} />}
                  >
                    {copied ? t('mfa.copied') : t('mfa.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </SimpleGrid>
        <Text size="sm" fw={600}>
          {t('mfa.enterCode')}
        </Text>
        <MfaCodeInput value={code} onChange={setCode} error={Boolean(failure)} />
        <Group>
          <Button type="submit" loading={submitting} leftSection={<IconShieldCheck size={18} />}>
            {t('mfa.activate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The recovery codes, shown once after activation, to copy or download. */
export function RecoveryCodes(props: { codes: string[]; children?: ReactNode }) {
  const { t } = useTranslation();
  const text = props.codes.join('\n');

  function download() {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Stack gap="md" data-testid="mfa-recovery-codes">
      <Alert color="yellow" variant="light" title={t('mfa.recoveryTitle')}>
        {t('mfa.recoveryHint')}
      </Alert>
      <SimpleGrid cols={2} spacing="xs" maw={360}>
        {props.codes.map((code) => (
          <Code key={code} fz="sm">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy} leftSection={<IconCopy size={16} />}>
              {copied ? t('mfa.copied') : t('mfa.copyAll')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={download} leftSection={<IconDownload size={16} />}>
          {t('mfa.download')}
        </Button>
        {props.children}
      </Group>
    </Stack>
  );
}
