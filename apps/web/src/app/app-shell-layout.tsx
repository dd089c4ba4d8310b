import { consentDue } from '@app/contracts';
import { AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { meQueryOptions } from '../features/identity/identity.queries';
import { useInboxNotifications } from '../features/inbox/notifications/use-inbox-notifications';
import { usePageVisitTracking } from '../features/tracking/use-page-visit-tracking';
import { BrandMark } from '../shared/brand-mark';
import { withFeatureStrings } from '../shared/i18n';
import { useSession } from '../shared/use-session';
import { CreditSummary } from './credit-summary';
import { MainMenu } from './main-menu';
import { PagePending } from './page-pending';
import { useRealtimeConnection } from './use-realtime-connection';
import { UserMenu } from './user-menu';

/**
 * The consent dialog (Mantine's Modal with its focus trap and scroll lock, the admin
 * feature's strings) is its own chunk: most visits are by users who have answered, so it
 * loads once due.
 */
const ConsentDialog = lazy(() =>
  withFeatureStrings(import('../features/identity/consent-dialog')).then((module) => ({
    default: module.ConsentDialog,
  })),
);

/** Mounts the consent dialog once consent is due and keeps it, so it closes with its transition. */
function ConsentDialogWhenDue() {
  const me = useQuery(meQueryOptions());
  const due = me.data !== undefined && consentDue({ ...me.data, createdAt: me.data.user.createdAt });
  const [wanted, setWanted] = useState(false);
  if (due && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <ConsentDialog due={due} />
    </Suspense>
  ) : null;
}

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
        <ConsentDialogWhenDue />
        <Suspense fallback={<PagePending />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
