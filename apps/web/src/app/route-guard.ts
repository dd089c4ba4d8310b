import { type AppAbility, canRead, defaultLandingPath, isPublicPath, matchRoute } from '@app/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { notFound, type ParsedLocation, redirect } from '@tanstack/react-router';
import i18next from 'i18next';
import { walletQueryOptions } from '../features/wallet/wallet.queries';
import { getSession } from '../shared/session';
import { showSnackbar } from '../shared/snackbar-store';
import { visibleMenu } from './menu-items';

export interface RouterContext {
  queryClient: QueryClient;
}

/** Where users land after sign-in: the build's setting, else the partner default from contracts. */
export const configuredLandingPath: string = import.meta.env.VITE_DEFAULT_LANDING_PATH?.startsWith('/')
  ? import.meta.env.VITE_DEFAULT_LANDING_PATH
  : defaultLandingPath;

/**
 * The landing path for this user. When they may not read it (a narrowed feature-access
 * group), the first screen of their menu is used instead: sending them to a path the
 * guard refuses would bounce forever.
 */
export function landingPathFor(ability: AppAbility): string {
  if (canRead(ability, matchRoute(configuredLandingPath)?.permission)) return configuredLandingPath;
  return visibleMenu(ability)[0]?.items[0]?.path ?? '/setting/self-change-password';
}

/** The `redirect` query value when it is a path of this app; anything else is ignored (no open redirect). */
export function safeRedirectTarget(value: unknown): string | null {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\')
  ) {
    return null;
  }
  return value.startsWith('/login') ? null : value;
}

/**
 * The navigation guard of core-inbox §2, run in `beforeLoad` of the main layout on every
 * navigation. It checks every path of the spec's route table, built or not:
 * - signed out → /login, keeping the whole address to come back to;
 * - signed in without READ on the route's permission → the landing path, with the
 *   menu-access-forbidden text in the top snackbar;
 * - otherwise the chat-credit balance is fetched again for the header.
 * Paths that pass but have no screen yet fall through to the layout's not-found page.
 */
export function guardAppNavigation({
  location,
  preload,
  context,
}: {
  location: ParsedLocation;
  preload: boolean;
  context: RouterContext;
}): void {
  const session = getSession();
  const pathname = location.pathname;
  if (!session) {
    // Public screens other than /login are not built; they get the bare not-found page.
    if (isPublicPath(pathname)) throw notFound();
    throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
  }

  const route = matchRoute(pathname);
  if (route?.redirectTo) throw redirect({ href: route.redirectTo, replace: true });
  if (route && !canRead(session.ability, route.permission)) {
    // Preloading (hovering a link) must neither warn nor fetch: the user has not gone there.
    if (!preload) showSnackbar('top', i18next.t('errors.menuAccessForbidden'), 'warning');
    throw redirect({ href: landingPathFor(session.ability), replace: true });
  }

  if (!preload) {
    void context.queryClient
      .fetchQuery({ ...walletQueryOptions(session.claims.clientId), staleTime: 0 })
      .catch(() => undefined);
  }
}
