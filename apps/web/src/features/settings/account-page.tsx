import type { MeResponse } from '@app/contracts';
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  Divider,
  Grid,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconBuildingStore,
  IconClock,
  IconHeadset,
  IconId,
  IconLanguage,
  IconMail,
  IconMapPin,
  IconUser,
  IconUserShield,
  IconWorld,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../shared/api-client';
import { countryName, formatDateTime, initialsOf } from '../../shared/display-format';
import { currentLanguage, errorText } from '../../shared/i18n';
import { PageHeader } from '../../shared/page-header';
import { usePageTitle } from '../../shared/use-page-title';
import { AgentAvailabilitySwitch } from '../identity/agent-availability-switch';
import { meQueryOptions } from '../identity/identity.queries';
import { PushActivation } from '../notifications/push-activation';

function DetailRow({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <Group gap="md" wrap="nowrap" align="center" py={8}>
      <ThemeIcon variant="light" color="gray" size={34} radius="md" aria-hidden>
        {icon}
      </ThemeIcon>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed" fw={500}>
          {label}
        </Text>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      </Stack>
    </Group>
  );
}

function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card padding="lg">
      <Title order={2} fz="md" fw={650} mb={4}>
        {title}
      </Title>
      <Stack gap={0}>{children}</Stack>
    </Card>
  );
}

function AccountDetails({ me }: { me: MeResponse }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { user, client } = me;
  return (
    <Stack gap="lg">
      <Grid gutter="lg" align="stretch">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card h="100%" padding="lg">
            <Group gap="lg" wrap="nowrap" h="100%">
              <Avatar color="brand" variant="filled" radius={999} size={72} fz={26}>
                {initialsOf(user.name, user.email)}
              </Avatar>
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Text fz={20} fw={650} truncate data-testid="account-name">
                  {user.name}
                </Text>
                <Text c="dimmed" size="sm" truncate>
                  {user.email}
                </Text>
                <Group gap={8} mt={4}>
                  <Badge variant="light" color="brand" tt="none" leftSection={<IconUserShield size={12} />}>
                    {t(`roles.${user.role}`)}
                  </Badge>
                  <Badge variant="light" color="gray" tt="none" leftSection={<IconBuildingStore size={12} />}>
                    {client.name}
                  </Badge>
                </Group>
              </Stack>
            </Group>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card h="100%" padding="lg">
            <Stack gap="sm" justify="space-between" h="100%">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" color="green" size={36} radius="md" aria-hidden>
                  <IconHeadset size={20} />
                </ThemeIcon>
                <Stack gap={2}>
                  <Title order={2} fz="md" fw={650}>
                    {t('availability.title')}
                  </Title>
                  <Text size="xs" c="dimmed" lh={1.5}>
                    {t('availability.description')}
                  </Text>
                </Stack>
              </Group>
              <AgentAvailabilitySwitch />
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <PushActivation />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <SectionCard title={t('account.profile')}>
          <DetailRow icon={<IconUser size={18} />} label={t('account.name')} value={user.name} />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow icon={<IconMail size={18} />} label={t('account.email')} value={user.email} />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow icon={<IconId size={18} />} label={t('account.role')} value={t(`roles.${user.role}`)} />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow
            icon={<IconClock size={18} />}
            label={t('account.memberSince')}
            value={formatDateTime(user.createdAt, language, client.timezone)}
          />
        </SectionCard>
        <SectionCard title={t('account.business')}>
          <DetailRow icon={<IconBuildingStore size={18} />} label={t('account.client')} value={client.name} />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow
            icon={<IconMapPin size={18} />}
            label={t('account.country')}
            value={countryName(client.country, language)}
          />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow icon={<IconWorld size={18} />} label={t('account.timezone')} value={client.timezone} />
          <Divider color="var(--app-border-subtle)" />
          <DetailRow
            icon={<IconLanguage size={18} />}
            label={t('account.language')}
            value={t(`language.${language}`)}
          />
        </SectionCard>
      </SimpleGrid>
    </Stack>
  );
}

/** Read-only account page (permission SETTING_ACCOUNT), from users/me. */
export function AccountPage() {
  const { t } = useTranslation();
  usePageTitle('account.pageTitle');
  const me = useQuery(meQueryOptions());

  return (
    <Stack gap={0} maw={1040}>
      <PageHeader title={t('account.title')} description={t('account.subtitle')} />
      {me.isPending ? (
        <Stack gap="lg">
          <Skeleton h={120} radius="lg" />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Skeleton h={280} radius="lg" />
            <Skeleton h={280} radius="lg" />
          </SimpleGrid>
        </Stack>
      ) : me.isError ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title={t('account.loadFailed')}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{errorText(t, errorObjectOf(me.error))}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void me.refetch()}>
              {t('common.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <AccountDetails me={me.data} />
      )}
    </Stack>
  );
}
