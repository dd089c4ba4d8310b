import { type Language, languages } from '@app/contracts';
import { Avatar, Badge, Box, Divider, Group, Menu, Stack, Text } from '@mantine/core';
import { IconCheck, IconLanguage, IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AgentAvailabilitySwitch } from '../features/identity/agent-availability-switch';
import { ClientSwitchMenuItem } from '../features/identity/client-switch-dialog';
import { signOut } from '../features/identity/identity.queries';
import { PushMenuSection } from '../features/notifications/push-activation';
import { changeLanguage, currentLanguage } from '../shared/i18n';

/**
 * What the user menu shows when opened: who is signed in, availability, push notifications,
 * language, switching client and sign-out. Its own chunk: the signed-in inbox's first load
 * does not carry the switch, the push card or the client dialog.
 */
export default function UserMenuPanel({
  name,
  email,
  roleName,
  initials,
}: {
  name: string;
  email: string;
  roleName: string;
  initials: string;
}) {
  const { t } = useTranslation();
  const [signingOut, setSigningOut] = useState(false);
  const language = currentLanguage();
  return (
    <>
      <Group gap="sm" p="sm" wrap="nowrap">
        <Avatar color="brand" variant="light" radius="xl" size={44}>
          {initials}
        </Avatar>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {email}
          </Text>
          <Badge size="xs" variant="light" color="brand" mt={2} w="fit-content">
            {roleName}
          </Badge>
        </Stack>
      </Group>
      <Divider my={4} />
      <Menu.Label>{t('header.availability')}</Menu.Label>
      <Box px="sm" pb="xs">
        <AgentAvailabilitySwitch size="sm" />
      </Box>
      <PushMenuSection />
      <Divider my={4} />
      <Menu.Label>
        <Group gap={6}>
          <IconLanguage size={14} />
          {t('language.label')}
        </Group>
      </Menu.Label>
      {languages.map((option: Language) => (
        <Menu.Item
          key={option}
          onClick={() => changeLanguage(option)}
          rightSection={
            option === language ? <IconCheck size={16} color="var(--mantine-color-brand-7)" /> : null
          }
          fw={option === language ? 600 : undefined}
          lang={option}
        >
          {t(`language.${option}`)}
        </Menu.Item>
      ))}
      <Divider my={4} />
      <ClientSwitchMenuItem />
      <Menu.Item
        color="red"
        leftSection={<IconLogout size={16} />}
        disabled={signingOut}
        onClick={() => {
          setSigningOut(true);
          void signOut();
        }}
      >
        {t('header.signOut')}
      </Menu.Item>
    </>
  );
}
