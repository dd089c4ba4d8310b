import {
  type ErrorObject,
  errorMessages,
  hasSpecialCharacter,
  passwordPolicy,
  phoneResetLimits,
  phoneResetMessages,
} from '@app/contracts';
import {
  Anchor,
  Button,
  PasswordInput,
  PinInput,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconLock, IconPhone } from '@tabler/icons-react';
import { Link, Navigate, useNavigate, useParams } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/i18n';
import { FlowDone, FlowMessages, PublicPageFrame } from '../../shared/public-page';
import { usePageTitle } from '../../shared/use-page-title';
import {
  confirmPhoneReset,
  type PhoneResetState,
  phoneResetState,
  requestPhoneReset,
  validatePhoneReset,
} from './phone-reset.queries';

const steps = ['phone', 'otp-verification', 'change-password', 'successfully'] as const;
type Step = (typeof steps)[number];

/** What a step needs from the earlier ones; without it the user starts again at /reset/phone. */
const reachable: Record<Step, (state: PhoneResetState) => boolean> = {
  phone: () => true,
  'otp-verification': (state) => Boolean(state.phone),
  'change-password': (state) => Boolean(state.resetToken),
  successfully: (state) => Boolean(state.done),
};

/** Texts of this flow with their locale keys; the rest come from the shared catalogue. */
const flowErrors: Record<string, string> = {
  [phoneResetMessages.phoneNotRegistered]: 'phoneNotRegistered',
  [phoneResetMessages.passwordNeedsSpecialCharacter]: 'passwordNeedsSpecialCharacter',
  [errorMessages.otpExpired]: 'otpExpired',
  [errorMessages.otpIncorrect]: 'otpIncorrect',
  [errorMessages.resetSessionTimedOut]: 'resetSessionTimedOut',
};

function phoneErrorText(t: TFunction, error: ErrorObject): string {
  const key = flowErrors[error.message];
  return key ? t(`phoneReset.errors.${key}`) : errorText(t, error);
}

/** Seconds until the moment; ticks once a second while above zero. */
function useSecondsUntil(moment: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!moment || moment <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [moment, now]);
  return moment ? Math.max(0, Math.ceil((moment - now) / 1000)) : 0;
}

/**
 * Reset by phone (core-inbox §2 /reset, §8): phone number, the 5-digit SMS code with a
 * resend countdown, a new password that must hold a special character, then sign in.
 * Each step has its own address; the state between them lives in sessionStorage.
 */
export function ResetByPhonePage() {
  const { t } = useTranslation();
  usePageTitle('phoneReset.pageTitle');
  const navigate = useNavigate();
  const { step: stepParam } = useParams({ strict: false }) as { step?: string };
  const [state, setState] = useState<PhoneResetState>(() => phoneResetState.read());
  const [phone, setPhone] = useState(state.phone ?? '');
  const [code, setCode] = useState('');
  const [passwords, setPasswords] = useState({ newPassword: '', confirmPassword: '' });
  const [fieldError, setFieldError] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const secondsLeft = useSecondsUntil(state.resendAt);

  const step = steps.find((candidate) => candidate === stepParam);
  if (!step || !reachable[step](state))
    return <Navigate to="/reset/$step" params={{ step: 'phone' }} replace />;

  function save(next: PhoneResetState) {
    phoneResetState.write(next);
    setState(next);
  }

  function go(next: Step) {
    setFailure(null);
    setFieldError({});
    void navigate({ to: '/reset/$step', params: { step: next } });
  }

  function begin(errors: Partial<Record<string, string>>): boolean {
    setFieldError(errors);
    setFailure(null);
    setNotice(null);
    return !Object.values(errors).some(Boolean);
  }

  async function sendCode(number: string, resend: boolean) {
    setBusy(true);
    const result = await requestPhoneReset(number);
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    save({ phone: number, resendAt: Date.now() + result.data.resendInSeconds * 1000 });
    if (resend) setNotice(t('phoneReset.resent'));
    else go('otp-verification');
  }

  async function submitPhone(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const digits = phone.replace(/[\s\-+]/g, '');
    const error = !digits
      ? 'phoneReset.phoneRequired'
      : /^\d{8,15}$/.test(digits)
        ? undefined
        : 'phoneReset.phoneInvalid';
    if (begin({ phone: error })) await sendCode(phone.trim(), false);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = code.length === phoneResetLimits.codeLength ? undefined : 'phoneReset.codeRequired';
    if (!begin({ code: error }) || !state.phone) return;
    setBusy(true);
    const result = await validatePhoneReset({ phone: state.phone, code });
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    save({ ...state, resetToken: result.data.resetToken });
    go('change-password');
  }

  async function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { newPassword, confirmPassword } = passwords;
    const policyError = !passwordPolicy.safeParse(newPassword).success
      ? 'errors.passwordFormat'
      : hasSpecialCharacter(newPassword)
        ? undefined
        : 'phoneReset.errors.passwordNeedsSpecialCharacter';
    const errors = {
      newPassword: newPassword ? policyError : 'phoneReset.newRequired',
      confirmPassword: !confirmPassword
        ? 'phoneReset.confirmRequired'
        : confirmPassword === newPassword
          ? undefined
          : 'errors.passwordMismatch',
    };
    if (!begin(errors) || !state.resetToken) return;
    setBusy(true);
    const result = await confirmPhoneReset({ resetToken: state.resetToken, newPassword, confirmPassword });
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    // The token stays until sign-in: this render still shows change-password, which needs it.
    save({ ...state, done: true });
    go('successfully');
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
    <PublicPageFrame cardWidth={480} testId="reset-by-phone">
      {step === 'successfully' ? (
        <FlowDone
          title={t('phoneReset.successTitle')}
          text={t('phoneReset.successText')}
          action={
            <Button component={Link} to="/login" size="md" onClick={() => phoneResetState.clear()}>
              {t('phoneReset.signIn')}
            </Button>
          }
        />
      ) : (
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={24} fw={650}>
              {t('phoneReset.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t(`phoneReset.subtitle.${step}`, { phone: state.phone ?? '' })}
            </Text>
          </Stack>
          <Stepper active={steps.indexOf(step)} size="xs" allowNextStepsSelect={false}>
            <Stepper.Step label={t('phoneReset.stepPhone')} />
            <Stepper.Step label={t('phoneReset.stepCode')} />
            <Stepper.Step label={t('phoneReset.stepPassword')} />
          </Stepper>
          <FlowMessages failure={failure && phoneErrorText(t, failure)} notice={notice} />

          {step === 'phone' ? (
            <form onSubmit={submitPhone} noValidate>
              <Stack gap="md">
                <TextInput
                  label={t('phoneReset.phone')}
                  placeholder={t('phoneReset.phonePlaceholder')}
                  name="phone"
                  type="tel"
                  autoComplete="tel"
                  size="md"
                  leftSection={<IconPhone size={18} stroke={1.6} />}
                  value={phone}
                  onChange={(event) => setPhone(event.currentTarget.value)}
                  error={errorOf('phone')}
                  autoFocus
                />
                <Button type="submit" size="md" loading={busy}>
                  {t('phoneReset.sendCode')}
                </Button>
              </Stack>
            </form>
          ) : null}

          {step === 'otp-verification' ? (
            <form onSubmit={submitCode} noValidate>
              <Stack gap="md" align="center">
                <PinInput
                  length={phoneResetLimits.codeLength}
                  type="number"
                  oneTimeCode
                  size="lg"
                  value={code}
                  onChange={setCode}
                  error={Boolean(fieldError.code)}
                  aria-label={t('phoneReset.code')}
                  data-testid="otp-input"
                  autoFocus
                />
                {fieldError.code ? (
                  <Text c="red" size="sm">
                    {errorOf('code')}
                  </Text>
                ) : null}
                <Button type="submit" size="md" loading={busy} fullWidth>
                  {t('phoneReset.verify')}
                </Button>
                <Button
                  variant="subtle"
                  disabled={secondsLeft > 0 || busy}
                  onClick={() => {
                    begin({});
                    if (state.phone) void sendCode(state.phone, true);
                  }}
                  data-testid="resend-code"
                >
                  {secondsLeft > 0
                    ? t('phoneReset.resendIn', { seconds: secondsLeft })
                    : t('phoneReset.resend')}
                </Button>
              </Stack>
            </form>
          ) : null}

          {step === 'change-password' ? (
            <form onSubmit={submitPassword} noValidate>
              <Stack gap="md">
                <PasswordInput
                  {...passwordField('newPassword')}
                  label={t('phoneReset.newPassword')}
                  description={t('phoneReset.hint')}
                />
                <PasswordInput
                  {...passwordField('confirmPassword')}
                  label={t('phoneReset.confirmPassword')}
                />
                <Button type="submit" size="md" loading={busy}>
                  {t('phoneReset.savePassword')}
                </Button>
              </Stack>
            </form>
          ) : null}

          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('phoneReset.backToLogin')}
          </Anchor>
        </Stack>
      )}
    </PublicPageFrame>
  );
}
