import { signupLimits } from '@app/contracts';
import { Button, Stack, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Step "Kode OTP": the 6-digit code from the e-mail, with forgot password's resend
 * countdown (the button stays off until the server would accept another code).
 */
export function CodeStep(props: {
  busy: boolean;
  secondsLeft: number;
  onVerify: (code: string) => void;
  onResend: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const valid = new RegExp(`^\\d{${signupLimits.codeLength}}$`).test(code);
    setError(valid ? undefined : t('signup.code.required'));
    if (valid) props.onVerify(code);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('signup.code.label')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={signupLimits.codeLength}
          size="md"
          leftSection={<IconKey size={18} stroke={1.6} />}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
          error={error}
          autoFocus
        />
        <Button type="submit" size="md" loading={props.busy}>
          {t('signup.code.verify')}
        </Button>
        <Button
          variant="subtle"
          disabled={props.secondsLeft > 0 || props.busy}
          onClick={props.onResend}
          data-testid="resend-code"
        >
          {props.secondsLeft > 0
            ? t('signup.code.resendIn', { seconds: props.secondsLeft })
            : t('signup.code.resend')}
        </Button>
      </Stack>
    </form>
  );
}
