import { appVersion, type ErrorObject, type OidcErrorKey, type SignInResponse } from '@app/contracts';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowsShuffle,
  IconAt,
  IconLock,
  IconMessages,
  IconShieldLock,
} from '@tabler/icons-react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { landingPathFor, safeRedirectTarget } from '../../app/route-guard';
import { toErrorObject } from '../../shared/api-client';
import { BrandMark } from '../../shared/brand-mark';
import { LanguageSwitch } from '../../shared/language-switch';
import { endSession, getSession } from '../../shared/session';
import { usePageTitle } from '../../shared/use-page-title';
import { GoogleSignInButton, GoogleSignInError } from './google-sign-in';
import { mfaErrorText, setupChallenge, signInWithPassword } from './mfa.queries';
import { exchangeOidcCode, readOidcReturn } from './oidc-callback';
import { SignInCodeStep } from './sign-in-code-step';

const highlights = [
  { icon: IconMessages, key: 'brand.highlightInbox' },
  { icon: IconArrowsShuffle, key: 'brand.highlightTeam' },
  { icon: IconShieldLock, key: 'brand.highlightSecure' },
] as const;

const channelKeys = [
  'whatsapp',
  'instagram',
  'messenger',
  'tokopedia',
  'shopee',
  'lazada',
  'line',
  'telegram',
] as const;

/** The brand pane: what the product is, for people who land here for the first time. */
function BrandPane() {
  const { t } = useTranslation();
  return (
    <Box
      visibleFrom="md"
      p={48}
      style={{
        position: 'relative',
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        color: 'white',
        background:
          'radial-gradient(circle at 85% 10%, rgba(255,255,255,0.14), transparent 40%), linear-gradient(150deg, var(--mantine-color-brand-7) 0%, var(--mantine-color-brand-9) 70%, #044a37 100%)',
      }}
    >
      <BrandMark inverted size="lg" />
      <Stack gap="xl" maw={460}>
        <Title order={2} c="white" fz={34} lh={1.2} fw={700} style={{ letterSpacing: '-0.02em' }}>
          {t('brand.tagline')}
        </Title>
        <Text c="rgba(255,255,255,0.85)" fz="md" lh={1.6}>
          {t('brand.pitch')}
        </Text>
        <Stack gap="md">
          {highlights.map(({ icon: Icon, key }) => (
            <Group key={key} gap="md" wrap="nowrap">
              <ThemeIcon size={36} radius="md" variant="white" color="brand" aria-hidden>
                <Icon size={20} stroke={1.8} />
              </ThemeIcon>
              <Text fw={500}>{t(key)}</Text>
            </Group>
          ))}
        </Stack>
        <Group gap={8}>
          {channelKeys.map((channel) => (
            <Text
              key={channel}
              size="xs"
              fw={600}
              px={10}
              py={4}
              style={{
                borderRadius: 999,
                background: 'rgba(255,255,255,0.14)',
                border: '1px solid rgba(255,255,255,0.2)',
              }}
            >
              {t(`channels.${channel}`)}
            </Text>
          ))}
        </Group>
      </Stack>
      <Text size="sm" c="rgba(255,255,255,0.7)">
        {t('brand.trust')}
      </Text>
    </Box>
  );
}

/** Sign-in: e-mail and password; afterwards back to where the user was sent from, or the landing path. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const search = useSearch({ from: '/login' });
  usePageTitle('login.pageTitle');

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** The 2-step challenge once the password was right; the form then asks for the code. */
  const [challenge, setChallenge] = useState<string | null>(null);
  /** Why the Google sign-in that brought the user back here failed. */
  const [oidcError, setOidcError] = useState<OidcErrorKey | null>(null);

  // Google sign-in returns here with a one-time code (or why it failed) in the address.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the page opens.
  useEffect(() => {
    const returned = readOidcReturn(window.location.search);
    if (!returned) return;
    if ('error' in returned) {
      setOidcError(returned.error);
      return;
    }
    setSubmitting(true);
    void exchangeOidcCode(returned.code).then((result) => {
      if (!result) return;
      if (!result.ok) {
        setSubmitting(false);
        setOidcError('signInFailed');
        return;
      }
      void afterSignIn(result.data);
    });
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = {
      email: email.trim() ? undefined : 'login.emailRequired',
      password: password ? undefined : 'login.passwordRequired',
    };
    setFieldErrors(errors);
    setFailure(null);
    setOidcError(null);
    if (errors.email || errors.password) return;

    setSubmitting(true);
    const result = await signInWithPassword({ email: email.trim(), password });
    if (!result.ok) {
      setSubmitting(false);
      setFailure(result.error);
      return;
    }
    await afterSignIn(result.data);
  }

  /** The step after the password (or Google): the 2-step code, its first activation, or the app. */
  async function afterSignIn(data: SignInResponse) {
    if ('mfaRequired' in data) {
      // 2-step is on: no session yet, the code step follows with this challenge.
      setSubmitting(false);
      setPassword('');
      setChallenge(data.mfaToken);
      return;
    }
    if ('mfaSetupRequired' in data) {
      setupChallenge.save(data.mfaToken);
      await navigate({ to: '/activate-mfa', replace: true });
      return;
    }
    await enterApp();
  }

  /** Goes to where the user was sent from, or their landing path, once a session is stored. */
  async function enterApp() {
    const session = getSession();
    if (!session) {
      // The server answered with a token this build cannot read; staying signed in would
      // leave the user bouncing between the guard and this form.
      endSession('signed-out');
      setSubmitting(false);
      setFailure(toErrorObject(undefined, null));
      return;
    }
    const target = safeRedirectTarget(search.redirect) ?? landingPathFor(session.ability);
    // Replace, so Back from the first screen does not return to the sign-in form.
    await navigate({ href: target, replace: true });
  }

  const year = new Date().getFullYear();
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100vh">
      <BrandPane />
      <Stack justify="space-between" p={{ base: 'lg', sm: 40 }} bg="white" mih="100vh">
        <Group justify="space-between">
          <Box hiddenFrom="md">
            <BrandMark />
          </Box>
          <Box ml="auto">
            <LanguageSwitch size="sm" />
          </Box>
        </Group>

        <Box w="100%" maw={400} mx="auto">
          <Stack gap={6} mb={32}>
            <Title order={1} fz={28} fw={700} style={{ letterSpacing: '-0.02em' }}>
              {t('login.title')}
            </Title>
            <Text c="dimmed">{t('login.subtitle')}</Text>
          </Stack>

          {challenge ? (
            <SignInCodeStep
              challenge={challenge}
              onSignedIn={enterApp}
              onRestart={(error) => {
                setChallenge(null);
                setFailure(error);
              }}
            />
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="md">
                {oidcError ? <GoogleSignInError error={oidcError} /> : null}
                {failure ? (
                  <Alert
                    color="red"
                    variant="light"
                    radius="md"
                    icon={<IconAlertCircle size={18} />}
                    title={t('login.failedTitle')}
                    role="alert"
                    data-testid="login-error"
                  >
                    {mfaErrorText(t, failure)}
                  </Alert>
                ) : null}
                <TextInput
                  label={t('login.email')}
                  placeholder={t('login.emailPlaceholder')}
                  name="email"
                  type="email"
                  autoComplete="username"
                  inputMode="email"
                  size="md"
                  leftSection={<IconAt size={18} stroke={1.6} />}
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  error={fieldErrors.email ? t(fieldErrors.email) : undefined}
                  autoFocus
                />
                <PasswordInput
                  label={t('login.password')}
                  placeholder={t('login.passwordPlaceholder')}
                  name="password"
                  autoComplete="current-password"
                  size="md"
                  leftSection={<IconLock size={18} stroke={1.6} />}
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  error={fieldErrors.password ? t(fieldErrors.password) : undefined}
                />
                <Anchor component={Link} to="/forgot-password" size="sm" ta="right" mt={-6}>
                  {t('passwordReset.forgotLink')}
                </Anchor>
                <Button type="submit" size="md" fullWidth mt="sm" loading={submitting}>
                  {t('login.submit')}
                </Button>
              </Stack>
            </form>
          )}
          {challenge ? null : <GoogleSignInButton redirect={safeRedirectTarget(search.redirect)} />}
          {challenge ? null : (
            <Text size="sm" ta="center" mt="md">
              {t('signup.noAccount')}{' '}
              <Anchor component={Link} to="/register">
                {t('signup.registerLink')}
              </Anchor>
            </Text>
          )}
        </Box>

        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('brand.copyright', { year, brand: t('brand.name') })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('brand.version', { version: appVersion })}
          </Text>
        </Group>
      </Stack>
    </SimpleGrid>
  );
}
