import { AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Navigate, Outlet, useLocation } from '@tanstack/react-router';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ConsentDialog } from '../features/identity/consent-dialog';
import { useInboxNotifications } from '../features/inbox/notifications/use-inbox-notifications';
import { usePageVisitTracking } from '../features/tracking/use-page-visit-tracking';
import { BrandMark } from '../shared/brand-mark';
import { useSession } from '../shared/use-session';
import { CreditSummary } from './credit-summary';
import { MainMenu } from './main-menu';
import { PagePending } from './page-pending';
import { useRealtimeConnection } from './use-realtime-connection';
import { UserMenu } from './user-menu';

/** The main layout of every signed-in screen: header, side menu, content. */
export function AppShellLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const [menuOpened, { toggle, close }] = useDisclosure(false);
  const pathname = useLocation({ select: (location) => location.pathname });
  useRealtimeConnection();
  useInboxNotifications();
  usePageVisitTracking();

  // On small screens the menu is a drawer; it closes once the user has picked a screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is wanted on every path change.
  useEffect(() => close(), [pathname, close]);

  // Normally sign-out has already navigated away; this covers tokens vanishing any other way.
  if (!session) return <Navigate to="/login" replace />;

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !menuOpened } }}
      padding="xl"
      styles={{
        main: { background: 'var(--app-page-background)' },
        header: { borderBottom: '1px solid var(--app-border-subtle)' },
        navbar: { borderRight: '1px solid var(--app-border-subtle)' },
      }}
    >
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={menuOpened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('menu.toggle')}
            />
            <BrandMark />
          </Group>
          <Group gap="md" wrap="nowrap">
            <CreditSummary clientId={session.claims.clientId} />
            <UserMenu session={session} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md">
        <MainMenu session={session} />
      </AppShell.Navbar>
      <AppShell.Main>
        <ConsentDialog />
        <Suspense fallback={<PagePending />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
