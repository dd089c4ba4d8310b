import { appVersion } from '@app/contracts';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PublicPageFrame } from '../../shared/public-page';
import { usePageTitle } from '../../shared/use-page-title';

/** /about (core-inbox §1 public routes): what the product is, its version, and the ways in. */
export function AboutPage() {
  const { t } = useTranslation();
  usePageTitle('signup.about.pageTitle');
  const brand = t('brand.name');
  return (
    <PublicPageFrame cardWidth={560} testId="about">
      <Stack gap="md">
        <Title order={1} fz={26} fw={650}>
          {t('signup.about.title', { brand })}
        </Title>
        <Text data-testid="app-version" c="dimmed" size="sm">
          {t('brand.version', { version: appVersion })}
        </Text>
        <Text>{t('signup.about.description', { brand })}</Text>
        <Text c="dimmed" size="sm">
          {t('brand.pitch')}
        </Text>
        <Group mt="sm">
          <Button component={Link} to="/register">
            {t('signup.about.register')}
          </Button>
          <Anchor component={Link} to="/login">
            {t('signup.about.signIn')}
          </Anchor>
        </Group>
      </Stack>
    </PublicPageFrame>
  );
}
