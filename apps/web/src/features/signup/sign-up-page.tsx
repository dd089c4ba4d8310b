import {
  type ErrorObject,
  type SignupAccountBody,
  type SignupStore,
  type SubscriptionPackage,
  signupErrorMessages,
} from '@app/contracts';
import { Anchor, Button, Stack, Stepper, Text, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { landingPathFor } from '../../app/route-guard';
import { FlowDone, FlowMessages, PublicPageFrame } from '../../shared/public-page';
import { getSession } from '../../shared/session';
import { useCountdown } from '../../shared/use-countdown';
import { usePageTitle } from '../../shared/use-page-title';
import { AccountStep, accountFieldOf, emptyAccount } from './account-step';
import { CodeStep } from './code-step';
import { SubscriptionStep, WabaStep } from './plan-steps';
import { completeSignup, resendSignupCode, submitSignupAccount, verifySignupCode } from './signup.queries';
import { type FieldErrors, signupFailureText } from './signup-form';
import { emptyStore, StoreStep } from './store-step';

const steps = ['account', 'code', 'store', 'waba', 'subscription', 'done'] as const;
type Step = (typeof steps)[number];

/**
 * The sign-up stepper at /sign-up (commerce §5, issue 14): account, the e-mailed code,
 * store, WABA (may be skipped), subscription (free trial by default), success. Each step
 * checks its form with the server's contract; the last call creates the client and its
 * owner and signs the owner in.
 */
export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('signup.pageTitle');
  const [step, setStep] = useState<Step>('account');
  const [account, setAccount] = useState(emptyAccount);
  const [accountErrors, setAccountErrors] = useState<FieldErrors>({});
  const [signupId, setSignupId] = useState('');
  const [continueToken, setContinueToken] = useState('');
  const [storeValues, setStoreValues] = useState(emptyStore);
  const [store, setStore] = useState<SignupStore | null>(null);
  const [wabaPhone, setWabaPhone] = useState('');
  const [wabaError, setWabaError] = useState<string | undefined>();
  const [waba, setWaba] = useState<{ phone: string } | null>(null);
  const [plan, setPlan] = useState<SubscriptionPackage>('FREE_TRIAL');
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();

  const go = (next: Step) => {
    setFailure(null);
    setNotice(null);
    setStep(next);
  };

  async function sendAccount(body: SignupAccountBody) {
    setBusy(true);
    setFailure(null);
    const result = await submitSignupAccount(body);
    setBusy(false);
    if (!result.ok) {
      const field = accountFieldOf(result.error.message);
      if (field) return setAccountErrors({ [field]: result.error.message });
      return setFailure(result.error);
    }
    setAccountErrors({});
    setSignupId(result.data.signupId);
    startCountdown(result.data.resendInSeconds);
    go('code');
  }

  async function resend() {
    setBusy(true);
    setFailure(null);
    const result = await resendSignupCode(signupId);
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setSignupId(result.data.signupId);
    startCountdown(result.data.resendInSeconds);
    setNotice(t('signup.code.resent'));
  }

  async function verify(code: string) {
    setBusy(true);
    setFailure(null);
    setNotice(null);
    const result = await verifySignupCode({ signupId, code });
    setBusy(false);
    if (!result.ok) return setFailure(result.error);
    setContinueToken(result.data.continueToken);
    go('store');
  }

  async function finish() {
    if (!store) return go('store');
    setBusy(true);
    setFailure(null);
    const result = await completeSignup({
      signupId,
      continueToken,
      store,
      waba,
      subscription: { package: plan },
    });
    setBusy(false);
    if (result.ok) return go('done');
    if (result.error.message === signupErrorMessages.wabaPhoneTaken) {
      setWabaError(result.error.message);
      return go('waba');
    }
    setFailure(result.error);
  }

  async function enterApp() {
    const session = getSession();
    await navigate({ href: session ? landingPathFor(session.ability) : '/login', replace: true });
  }

  const subtitle =
    step === 'code'
      ? t('signup.code.subtitle', { email: account.email.trim() })
      : t(`signup.${step}.subtitle`);

  return (
    <PublicPageFrame cardWidth={780} testId="sign-up">
      <Stack gap="lg">
        <Stepper active={steps.indexOf(step)} size="xs" iconSize={28} allowNextStepsSelect={false}>
          {steps.map((name) => (
            <Stepper.Step key={name} label={t(`signup.steps.${name}`)} />
          ))}
        </Stepper>
        {step === 'done' ? (
          <FlowDone
            title={t('signup.done.title')}
            text={t('signup.done.subtitle')}
            action={
              <Button size="md" onClick={() => void enterApp()}>
                {t('signup.done.enter')}
              </Button>
            }
          />
        ) : (
          <>
            <Stack gap={4}>
              <Title order={1} fz={24} fw={650}>
                {t(`signup.${step}.title`)}
              </Title>
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            </Stack>
            <FlowMessages failure={failure && signupFailureText(t, failure)} notice={notice} />
            {step === 'account' ? (
              <AccountStep
                values={account}
                onChange={(values) => {
                  setAccountErrors({});
                  setAccount(values);
                }}
                serverErrors={accountErrors}
                busy={busy}
                onSubmit={(body) => void sendAccount(body)}
              />
            ) : null}
            {step === 'code' ? (
              <CodeStep
                busy={busy}
                secondsLeft={secondsLeft}
                onVerify={(code) => void verify(code)}
                onResend={() => void resend()}
              />
            ) : null}
            {step === 'store' ? (
              <StoreStep
                values={storeValues}
                onChange={setStoreValues}
                onNext={(checked) => {
                  setStore(checked);
                  go('waba');
                }}
              />
            ) : null}
            {step === 'waba' ? (
              <WabaStep
                phone={wabaPhone}
                serverError={wabaError}
                onChange={(phone) => {
                  setWabaError(undefined);
                  setWabaPhone(phone);
                }}
                onBack={() => go('store')}
                onNext={(chosen) => {
                  setWaba(chosen);
                  go('subscription');
                }}
              />
            ) : null}
            {step === 'subscription' ? (
              <SubscriptionStep
                value={plan}
                busy={busy}
                onChange={setPlan}
                onBack={() => go('waba')}
                onFinish={() => void finish()}
              />
            ) : null}
            <Text size="sm" ta="center">
              {t('signup.haveAccount')}{' '}
              <Anchor component={Link} to="/login">
                {t('signup.signIn')}
              </Anchor>
            </Text>
          </>
        )}
      </Stack>
    </PublicPageFrame>
  );
}
