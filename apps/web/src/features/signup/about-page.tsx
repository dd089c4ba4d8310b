import { appVersion } from '@app/contracts';
import { Anchor, Box, Button, Card, Center, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../shared/brand-mark';
import { LanguageSwitch } from '../../shared/language-switch';
import { usePageTitle } from '../../shared/use-page-title';

/** /about (core-inbox §1 public routes): what the product is, its version, and the ways in. */
export function AboutPage() {
  const { t } = useTranslation();
  usePageTitle('signup.about.pageTitle');
  const brand = t('brand.name');
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)" p={{ base: 'md', sm: 'xl' }}>
      <Group justify="space-between" mb="xl">
        <BrandMark />
        <LanguageSwitch size="sm" />
      </Group>
      <Center>
        <Card w={560} maw="100%" padding="xl" data-testid="about">
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
        </Card>
      </Center>
    </Box>
  );
}
