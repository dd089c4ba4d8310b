import { Alert, Anchor, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { landingPathFor } from '../../app/route-guard';
import { BrandMark } from '../../shared/brand-mark';
import { LanguageSwitch } from '../../shared/language-switch';
import { getSession } from '../../shared/session';
import { usePageTitle } from '../../shared/use-page-title';
import { finishForcedActivation, setupChallenge, startForcedActivation } from './mfa.queries';
import { MfaSetupPanel, RecoveryCodes } from './mfa-setup-panel';

/**
 * /activate-mfa: the client requires 2-step and this user has none yet. Sign-in sent
 * them here with a setup challenge instead of a session; the first code signs them in.
 */
export function ActivateMfaPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('mfa.forcedPageTitle');
  const [challenge] = useState(() => setupChallenge.read());
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const load = useCallback(() => startForcedActivation(challenge ?? ''), [challenge]);
  const activate = useCallback((code: string) => finishForcedActivation(challenge ?? '', code), [challenge]);

  async function proceed() {
    const session = getSession();
    await navigate({ href: session ? landingPathFor(session.ability) : '/login', replace: true });
  }

  let body: React.ReactNode;
  if (!challenge) {
    body = (
      <Alert color="yellow" variant="light" role="alert">
        {t('mfa.challengeMissing')}{' '}
        <Anchor component={Link} to="/login">
          {t('mfa.backToLogin')}
        </Anchor>
      </Alert>
    );
  } else if (recoveryCodes) {
    body = (
      <RecoveryCodes codes={recoveryCodes}>
        <Button onClick={() => void proceed()}>{t('mfa.continue')}</Button>
      </RecoveryCodes>
    );
  } else {
    body = (
      <MfaSetupPanel
        load={load}
        activate={activate}
        onActivated={(codes) => {
          setupChallenge.clear();
          setRecoveryCodes(codes);
        }}
      />
    );
  }

  return (
    <Box mih="100vh" bg="gray.0" p={{ base: 'md', sm: 40 }}>
      <Group justify="space-between" mb="xl">
        <BrandMark />
        <LanguageSwitch size="sm" />
      </Group>
      <Card maw={640} mx="auto" p="xl">
        <Stack gap="md">
          <Title order={1} fz={24} fw={700}>
            {t('mfa.forcedTitle')}
          </Title>
          <Text c="dimmed">{t('mfa.forcedSubtitle')}</Text>
          {body}
        </Stack>
      </Card>
    </Box>
  );
}
