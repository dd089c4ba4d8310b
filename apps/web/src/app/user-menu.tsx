import { type Language, languages } from '@app/contracts';
import { Avatar, Badge, Box, Divider, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconChevronDown, IconLanguage, IconLogout } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AgentAvailabilitySwitch } from '../features/identity/agent-availability-switch';
import { ClientSwitchDialog, ClientSwitchMenuItem } from '../features/identity/client-switch-dialog';
import { meQueryOptions, signOut } from '../features/identity/identity.queries';
import { PushMenuSection, PushSessionSync } from '../features/notifications/push-activation';
import { initialsOf } from '../shared/display-format';
import { changeLanguage, currentLanguage } from '../shared/i18n';
import type { Session } from '../shared/session';
import { landingPathFor } from './route-guard';

/** The header's user button: who is signed in, availability, language and sign-out. */
export function UserMenu({ session }: { session: Session }) {
  const { t } = useTranslation();
  const me = useQuery(meQueryOptions());
  const [signingOut, setSigningOut] = useState(false);
  const name = me.data?.user.name ?? session.claims.email;
  const email = me.data?.user.email ?? session.claims.email;
  const roleName = t(`roles.${session.claims.role}`);
  // A person of several clients sees which one is open.
  const role = me.data?.enableMultiClient ? `${roleName} · ${me.data.client.name}` : roleName;
  const initials = initialsOf(me.data?.user.name, session.claims.email);
  const language = currentLanguage();

  return (
    <Menu width={300} position="bottom-end" shadow="lg" radius="md" withinPortal offset={10}>
      <Menu.Target>
        <UnstyledButton
          aria-label={t('header.userMenu')}
          data-testid="user-menu"
          px={8}
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap={10} wrap="nowrap">
            <Avatar color="brand" variant="filled" radius="xl" size={36}>
              {initials}
            </Avatar>
            <Box visibleFrom="sm" style={{ lineHeight: 1.2 }}>
              <Text size="sm" fw={600} lineClamp={1} maw={180}>
                {name}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={1} maw={220} data-testid="user-menu-role">
                {role}
              </Text>
            </Box>
            <IconChevronDown size={16} stroke={1.8} color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
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
      </Menu.Dropdown>
      <ClientSwitchDialog landingPathFor={landingPathFor} />
      <PushSessionSync />
    </Menu>
  );
}
