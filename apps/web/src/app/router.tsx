import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { getSession } from '../shared/session';
import { AppShellLayout } from './app-shell-layout';
import { lazyPage } from './lazy-page';
import { ShellNotFoundPage, StandaloneNotFoundPage } from './not-found-page';
import { PagePending } from './page-pending';
import { RootLayout } from './root-layout';
import { RouteErrorView } from './route-error-view';
import { guardAppNavigation, landingPathFor, type RouterContext, safeRedirectTarget } from './route-guard';

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: StandaloneNotFoundPage,
});

/** The spec sends the root and the main layout to /dashboard; the guard takes it from there. */
const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ href: '/dashboard', replace: true });
  },
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: ({ search }) => {
    const session = getSession();
    if (session)
      throw redirect({
        href: safeRedirectTarget(search.redirect) ?? landingPathFor(session.ability),
        replace: true,
      });
  },
  component: lazyPage(() => import('../features/identity/login-page'), 'LoginPage'),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'forgot-password',
  component: lazyPage(() => import('../features/identity/forgot-password-page'), 'ForgotPasswordPage'),
});

/** Sign-up (issue 14): the stepper, /register in front of it (or the partner's site), and /about. */
const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-up',
  component: lazyPage(() => import('../features/signup/sign-up-page'), 'SignUpPage'),
});
const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'register',
  component: lazyPage(() => import('../features/signup/register-page'), 'RegisterPage'),
});
const aboutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'about',
  component: lazyPage(() => import('../features/signup/about-page'), 'AboutPage'),
});

/** Reset by phone: /reset goes to its first step; the steps are phone, otp-verification, change-password, successfully. */
const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset',
  beforeLoad: () => {
    throw redirect({ href: '/reset/phone', replace: true });
  },
});

const resetStepRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset/$step',
  component: lazyPage(() => import('../features/identity/reset-by-phone-page'), 'ResetByPhonePage'),
});

/** Forced 2-step activation, when the client requires it for everyone (public: before full sign-in). */
const activateMfaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'activate-mfa',
  component: lazyPage(() => import('../features/identity/activate-mfa-page'), 'ActivateMfaPage'),
});

/** The main layout; its guard runs on every navigation to any path below it. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: ({ location, preload, context }) => guardAppNavigation({ location, preload, context }),
  component: AppShellLayout,
});

const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/account',
  component: lazyPage(() => import('../features/settings/account-page'), 'AccountPage'),
});

const changePasswordRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/self-change-password',
  component: lazyPage(() => import('../features/settings/change-password-page'), 'ChangePasswordPage'),
});

/** The inbox and the ticket view, where every signed-in user lands, show only the bundled strings. */
const inboxRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'customer-service/inbox',
  component: lazyPage(() => import('../features/inbox/inbox-page'), 'InboxPage', 'bundled'),
});

const ticketViewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'customer-service/ticket-view',
  component: lazyPage(
    () => import('../features/inbox/ticket-list/ticket-view-page'),
    'TicketViewPage',
    'bundled',
  ),
});

/** The chat room needs the ticket (referenceId); without it the inbox is the place to be. */
const chatRoomRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'customer-service/inbox-chatroom',
  // A number, so the router writes `?referenceId=42` rather than a quoted JSON string.
  validateSearch: (search: Record<string, unknown>): { referenceId?: number } => {
    const value = Number(search.referenceId);
    return Number.isSafeInteger(value) && value > 0 ? { referenceId: value } : {};
  },
  beforeLoad: ({ search }) => {
    if (!search.referenceId) throw redirect({ href: '/customer-service/inbox', replace: true });
  },
  component: lazyPage(() => import('../features/inbox/chat-room/chat-room-page'), 'ChatRoomPage'),
});

const chatHistoryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'customer-service/chat-history',
  component: lazyPage(() => import('../features/inbox/search/chat-history-page'), 'ChatHistoryPage'),
});

const ticketSearchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'customer-service/ticket-list',
  component: lazyPage(() => import('../features/inbox/search/ticket-search-page'), 'TicketSearchPage'),
});

const livechatCreateRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'livechat/create',
  component: lazyPage(() => import('../features/livechat/livechat-create-page'), 'LivechatCreatePage'),
});

const livechatEditRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'livechat/edit/$id',
  component: lazyPage(() => import('../features/livechat/livechat-edit-page'), 'LivechatEditPage'),
});

const twoFactorSetupRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/two-factor-verification-setup',
  component: lazyPage(() => import('../features/identity/two-factor-setup-page'), 'TwoFactorSetupPage'),
});

const devMailboxRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/mailbox',
  component: lazyPage(() => import('../features/identity/dev-mailbox-page'), 'DevMailboxPage'),
});

const auditLogRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/logs',
  component: lazyPage(() => import('../features/settings/audit-log-page'), 'AuditLogPage'),
});

const adminUsersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/admin',
  component: lazyPage(() => import('../features/admin/admin-users-page'), 'AdminUsersPage'),
});

/** Business settings; the tab is in the address (`?tab=channel`) so guidance can link to it. */
const businessSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'setting/store',
  validateSearch: (search: Record<string, unknown>): { tab?: 'channel' } =>
    search.tab === 'channel' ? { tab: 'channel' } : {},
  component: lazyPage(
    () => import('../features/business-settings/business-settings-page'),
    'BusinessSettingsPage',
  ),
});

/** Every other path the guard let through: not built yet, or unknown. */
const notBuiltRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  component: ShellNotFoundPage,
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  forgotPasswordRoute,
  signUpRoute,
  registerRoute,
  aboutRoute,
  resetRoute,
  resetStepRoute,
  activateMfaRoute,
  appRoute.addChildren([
    accountRoute,
    changePasswordRoute,
    inboxRoute,
    ticketViewRoute,
    chatRoomRoute,
    chatHistoryRoute,
    ticketSearchRoute,
    livechatCreateRoute,
    livechatEditRoute,
    twoFactorSetupRoute,
    devMailboxRoute,
    adminUsersRoute,
    businessSettingsRoute,
    auditLogRoute,
    notBuiltRoute,
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPendingComponent: PagePending,
    defaultErrorComponent: RouteErrorView,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
