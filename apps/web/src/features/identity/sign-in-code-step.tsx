import { type ErrorObject, mfaCodeLength } from '@app/contracts';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mfaErrorText, verifySignInCode } from './mfa.queries';
import { MfaCodeInput } from './mfa-setup-panel';

/**
 * The second sign-in step when 2-step is on: six digits from the app, or one recovery
 * code. `onSignedIn` runs once the session is stored; `onRestart` when the challenge has
 * expired or the account locked, so the password must be given again.
 */
export function SignInCodeStep(props: {
  challenge: string;
  onSignedIn: () => Promise<void>;
  onRestart: (failure: ErrorObject) => void;
}) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = code.trim();
    if (useRecovery ? !value : value.length !== mfaCodeLength) {
      setFailure({ statusCode: 400, error: 'Bad Request', message: t('mfa.codeRequired') });
      return;
    }
    setSubmitting(true);
    setFailure(null);
    const result = await verifySignInCode(props.challenge, value);
    if (result.ok) {
      await props.onSignedIn();
      return;
    }
    setSubmitting(false);
    setCode('');
    if (result.error.statusCode === 401 || result.error.statusCode === 429) props.onRestart(result.error);
    else setFailure(result.error);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text c="dimmed" size="sm">
          {useRecovery ? t('mfa.recoveryPrompt') : t('mfa.signInPrompt')}
        </Text>
        {failure ? (
          <Alert
            color="red"
            variant="light"
            radius="md"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            data-testid="login-error"
          >
            {mfaErrorText(t, failure)}
          </Alert>
        ) : null}
        {useRecovery ? (
          <TextInput
            label={t('mfa.recoveryLabel')}
            name="recovery-code"
            size="md"
            autoComplete="off"
            leftSection={<IconKey size={18} stroke={1.6} />}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            autoFocus
          />
        ) : (
          <MfaCodeInput value={code} onChange={setCode} error={Boolean(failure)} />
        )}
        <Button type="submit" size="md" fullWidth loading={submitting}>
          {t('mfa.verify')}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery((current) => !current);
            setCode('');
            setFailure(null);
          }}
        >
          {useRecovery ? t('mfa.useApp') : t('mfa.useRecovery')}
        </Anchor>
      </Stack>
    </form>
  );
}
