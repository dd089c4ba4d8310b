import { type ErrorObject, errorKeyOf, passwordPolicy, passwordResetLimits } from '@app/contracts';
import { Anchor, Button, PasswordInput, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { IconAt, IconKey, IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/i18n';
import { FlowDone, FlowMessages, PublicPageFrame } from '../../shared/public-page';
import { useCountdown } from '../../shared/use-countdown';
import { usePageTitle } from '../../shared/use-page-title';
import { confirmPasswordReset, requestPasswordReset, validatePasswordReset } from './password-reset.queries';

type Step = 'email' | 'code' | 'password' | 'done';
const stepIndex: Record<Step, number> = { email: 0, code: 1, password: 2, done: 3 };

/** This flow's own error texts live in its locale file; the rest come from the shared catalogue. */
const flowErrorKeys = new Set(['emailNotRegistered', 'otpExpired', 'otpIncorrect', 'resetSessionTimedOut']);

function resetErrorText(t: TFunction, error: ErrorObject): string {
  const key = errorKeyOf(error.message);
  return key && flowErrorKeys.has(key) ? t(`passwordReset.errors.${key}`) : errorText(t, error);
}

/**
 * Forgot password (core-inbox §8): e-mail, the mailed one-time code with a resend
 * countdown, then the new password; success sends the user to sign in.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle('passwordReset.pageTitle');
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [resetToken, setResetToken] = useState('');
  const [passwords, setPasswords] = useState({ newPassword: '', confirmPassword: '' });
  const [fieldError, setFieldError] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();

  function begin(errors: Partial<Record<string, string>>): boolean {
    setFieldError(errors);
    setFailure(null);
    setNotice(null);
    return !Object.values(errors).some(Boolean);
  }

  async function sendCode(resend: boolean) {
    setBusy(true);
    const result = await requestPasswordReset(email.trim());
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    startCountdown(result.data.resendInSeconds);
    setStep('code');
    if (resend) setNotice(t('passwordReset.resent'));
  }

  async function submitEmail(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = email.trim();
    const error = !trimmed
      ? 'passwordReset.emailRequired'
      : /^\S+@\S+\.\S+$/.test(trimmed)
        ? undefined
        : 'passwordReset.emailInvalid';
    if (begin({ email: error })) await sendCode(false);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = /^\d+$/.test(code.trim()) ? undefined : 'passwordReset.codeRequired';
    if (!begin({ code: error })) return;
    setBusy(true);
    const result = await validatePasswordReset({ email: email.trim(), code: code.trim() });
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setResetToken(result.data.resetToken);
    setStep('password');
  }

  async function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { newPassword, confirmPassword } = passwords;
    const errors = {
      newPassword: !newPassword
        ? 'passwordReset.newRequired'
        : passwordPolicy.safeParse(newPassword).success
          ? undefined
          : 'errors.passwordFormat',
      confirmPassword: !confirmPassword
        ? 'passwordReset.confirmRequired'
        : confirmPassword === newPassword
          ? undefined
          : 'errors.passwordMismatch',
    };
    if (!begin(errors)) return;
    setBusy(true);
    const result = await confirmPasswordReset({ resetToken, newPassword, confirmPassword });
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setStep('done');
  }

  const errorOf = (name: string) => (fieldError[name] ? t(fieldError[name]) : undefined);
  const passwordField = (name: 'newPassword' | 'confirmPassword') => ({
    name,
    size: 'md' as const,
    autoComplete: 'new-password',
    leftSection: <IconLock size={18} stroke={1.6} />,
    value: passwords[name],
    error: errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setPasswords((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <PublicPageFrame cardWidth={480} testId="forgot-password">
      {step === 'done' ? (
        <FlowDone
          title={t('passwordReset.successTitle')}
          text={t('passwordReset.successText')}
          action={
            <Button component={Link} to="/login" size="md">
              {t('passwordReset.signIn')}
            </Button>
          }
        />
      ) : (
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={24} fw={650}>
              {t('passwordReset.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t(`passwordReset.${step}Subtitle`, { email: email.trim() })}
            </Text>
          </Stack>
          <Stepper active={stepIndex[step]} size="xs" allowNextStepsSelect={false}>
            <Stepper.Step label={t('passwordReset.stepEmail')} />
            <Stepper.Step label={t('passwordReset.stepCode')} />
            <Stepper.Step label={t('passwordReset.stepPassword')} />
          </Stepper>
          <FlowMessages failure={failure && resetErrorText(t, failure)} notice={notice} />

          {step === 'email' ? (
            <form onSubmit={submitEmail} noValidate>
              <Stack gap="md">
                <TextInput
                  label={t('passwordReset.email')}
                  placeholder={t('passwordReset.emailPlaceholder')}
                  name="email"
                  type="email"
                  autoComplete="username"
                  size="md"
                  leftSection={<IconAt size={18} stroke={1.6} />}
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  error={errorOf('email')}
                  autoFocus
                />
                <Button type="submit" size="md" loading={busy}>
                  {t('passwordReset.sendCode')}
                </Button>
              </Stack>
            </form>
          ) : null}

          {step === 'code' ? (
            <form onSubmit={submitCode} noValidate>
              <Stack gap="md">
                <TextInput
                  label={t('passwordReset.code')}
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={passwordResetLimits.codeLength}
                  size="md"
                  leftSection={<IconKey size={18} stroke={1.6} />}
                  value={code}
                  onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
                  error={errorOf('code')}
                  autoFocus
                />
                <Button type="submit" size="md" loading={busy}>
                  {t('passwordReset.verify')}
                </Button>
                <Button
                  variant="subtle"
                  disabled={secondsLeft > 0 || busy}
                  onClick={() => {
                    begin({});
                    void sendCode(true);
                  }}
                  data-testid="resend-code"
                >
                  {secondsLeft > 0
                    ? t('passwordReset.resendIn', { seconds: secondsLeft })
                    : t('passwordReset.resend')}
                </Button>
              </Stack>
            </form>
          ) : null}

          {step === 'password' ? (
            <form onSubmit={submitPassword} noValidate>
              <Stack gap="md">
                <PasswordInput
                  {...passwordField('newPassword')}
                  label={t('passwordReset.newPassword')}
                  description={t('passwordReset.hint')}
                />
                <PasswordInput
                  {...passwordField('confirmPassword')}
                  label={t('passwordReset.confirmPassword')}
                />
                <Button type="submit" size="md" loading={busy}>
                  {t('passwordReset.savePassword')}
                </Button>
              </Stack>
            </form>
          ) : null}

          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('passwordReset.backToLogin')}
          </Anchor>
        </Stack>
      )}
    </PublicPageFrame>
  );
}
