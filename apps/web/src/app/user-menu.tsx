import { Avatar, Box, Center, Group, Loader, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { meQueryOptions } from '../features/identity/identity.queries';
import { PushSessionSync } from '../features/notifications/push-session-sync';
import { initialsOf } from '../shared/display-format';
import type { Session } from '../shared/session';
import { landingPathFor } from './route-guard';

const UserMenuPanel = lazy(() => import('./user-menu-panel'));
const ClientSwitchDialog = lazy(() =>
  import('../features/identity/client-switch-dialog').then((module) => ({
    default: module.ClientSwitchDialog,
  })),
);

/** The header's user button: who is signed in, availability, language and sign-out. */
export function UserMenu({ session }: { session: Session }) {
  const { t } = useTranslation();
  const me = useQuery(meQueryOptions());
  const name = me.data?.user.name ?? session.claims.email;
  const email = me.data?.user.email ?? session.claims.email;
  const roleName = t(`roles.${session.claims.role}`);
  // A person of several clients sees which one is open.
  const role = me.data?.enableMultiClient ? `${roleName} · ${me.data.client.name}` : roleName;
  const initials = initialsOf(me.data?.user.name, session.claims.email);

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
        {/* The panel's code (availability, push, clients) loads when the menu first opens. */}
        <Suspense
          fallback={
            <Center p="md">
              <Loader size="xs" />
            </Center>
          }
        >
          <UserMenuPanel name={name} email={email} roleName={roleName} initials={initials} />
        </Suspense>
      </Menu.Dropdown>
      {me.data?.enableMultiClient ? (
        <Suspense fallback={null}>
          <ClientSwitchDialog landingPathFor={landingPathFor} />
        </Suspense>
      ) : null}
      <PushSessionSync />
    </Menu>
  );
}
