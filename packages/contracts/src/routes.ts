import type { PermissionName } from './permissions';

/** One row of the route table of core-inbox §2. */
export interface RouteDefinition {
  /** Path pattern; `$name` marks a path parameter. */
  path: string;
  /** Permission checked for READ; null when the spec gives none. */
  permission: PermissionName | null;
  /** False only where the spec flags it so (settings admin and store). */
  loginRequired: boolean;
  /** Where the route sends the user straight away, when it is only a redirect. */
  redirectTo?: string;
  premium?: boolean;
}

/** Public routes: reachable without signing in. */
export const publicPaths = [
  '/login',
  '/register',
  '/about',
  '/forgot-password',
  '/activate-mfa',
  '/sign-up-shopify',
  '/reset',
  '/sign-up',
] as const;

const route = (
  path: string,
  permission: PermissionName | null,
  extra: Partial<Omit<RouteDefinition, 'path' | 'permission'>> = {},
): RouteDefinition => ({ path, permission, loginRequired: true, ...extra });

/** Authenticated routes, children of the main layout (core-inbox §2). */
export const routeTable: ReadonlyArray<RouteDefinition> = [
  route('/dashboard', 'DASHBOARD'),
  route('/category', 'CATEGORY', { premium: true }),
  route('/broadcast', null, { redirectTo: '/broadcast/whatsapp' }),
  route('/broadcast/whatsapp', 'WHATSAPP_BROADCAST'),
  route('/broadcast/whatsapp/detail', 'WHATSAPP_BROADCAST'),
  route('/broadcast/viber', 'VIBER_BROADCAST'),
  route('/broadcast/email', 'EMAIL_BROADCAST'),
  route('/broadcast/sms', 'SMS_BROADCAST_TEMPLATE'),
  route('/broadcast/sms/detail', 'SMS_BROADCAST_TEMPLATE'),
  route('/broadcast/detail', 'EMAIL_BROADCAST'),
  route('/broadcast/voice', 'VOICE_BROADCAST'),
  route('/broadcast/voice/detail', 'VOICE_BROADCAST'),
  route('/advanced-broadcast/create/broadcast', 'ADVANCED_BROADCAST'),
  route('/outbound-call/call-center', 'CALL_CENTER'),
  route('/outbound-call/call-center-history', 'CALL_CENTER_HISTORY'),
  route('/inbound-call', 'INBOUND_CALL'),
  route('/inbound-call-history', 'INBOUND_CALL'),
  route('/customer-service/inbox', 'CUSTOMER_SERVICE_INBOX'),
  route('/customer-service/inbox/new', 'VIEW_FEATURE'),
  route('/customer-service/ticket-view', 'VIEW_FEATURE'),
  route('/customer-service/inbox-chatroom', null),
  route('/customer-service/chat-history', 'CUSTOMER_SERVICE_HISTORY'),
  route('/customer-service/ticket-list', 'ADVANCE_SEARCH'),
  route('/customer-service/chat-setting', 'CUSTOMER_SERVICE_SETTING'),
  route('/template', null, { redirectTo: '/template/whatsapp' }),
  route('/template/whatsapp', 'WHATSAPP_TEMPLATE'),
  route('/template/viber', 'VIBER_TEMPLATE'),
  route('/template/email', 'EMAIL_TEMPLATE'),
  route('/template/sms', 'SMS_BROADCAST_TEMPLATE'),
  route('/template/create/whatsapp', null),
  route('/template/create/viber', null),
  route('/template/create/email', null),
  route('/template/create/sms', null),
  route('/template/edit/whatsapp', null),
  route('/template/edit/viber', null),
  route('/follow-up/create/whatsapp', null),
  route('/follow-up/edit/whatsapp', null),
  route('/shopify', 'SHOPIFY'),
  route('/chatbot', 'WHATSAPP_CHATBOT'),
  route('/chat-credits', 'CHAT_CREDITS'),
  route('/cs-performance', null),
  route('/wallet', 'WALLET'),
  route('/setting/admin', 'SETTING_ADMIN', { loginRequired: false }),
  route('/setting/store', 'SETTING_STORE', { loginRequired: false }),
  route('/setting/plan-and-pricing', 'SETTING_PLAN_PRICING'),
  route('/setting/account', 'SETTING_ACCOUNT'),
  route('/setting/self-change-password', null),
  route('/setting/finance', 'SETTING_FINANCE'),
  route('/setting/logs', 'SETTING_LOGS'),
  route('/setting/two-factor-verification-setup', 'SETTING_ACCOUNT'),
  /** Not in the spec: the local mail outbox, read when no SMTP server is configured. */
  route('/setting/mailbox', 'SETTING_ADMIN'),
  route('/product/list', 'PRODUCT'),
  route('/product/whatsapp-catalogue', 'WHATSAPP_CATALOGUE'),
  route('/product/add-product', 'CREATE_PRODUCT'),
  route('/transaction', 'TRANSACTION'),
  route('/contact', 'CONTACT'),
  route('/contact/bulk-upload', 'CONTACT'),
  route('/contact/detail', 'CONTACT'),
  route('/contact/add-contact-tag', 'CONTACT'),
  route('/contact/edit-contact-tag/$tag', 'CONTACT'),
  route('/contact/custom-field', 'CONTACT'),
  route('/social/publish', 'SOCIAL_PUBLISH'),
  route('/social/comments', 'SOCIAL_COMMENT'),
  route('/livechat/create', 'CREATE_LIVE_CHAT'),
  route('/livechat/edit/$id', 'EDIT_LIVE_CHAT'),
  route('/email/create', 'CREATE_EMAIL'),
  route('/email/edit', 'EDIT_EMAIL'),
  route('/email/template/preview', 'EMAIL_TEMPLATE'),
  route('/sms/template/preview', 'SMS_BROADCAST_TEMPLATE'),
  route('/custom-dashboard', 'CUSTOM_DASHBOARD'),
];

/** The partner build's landing path after sign-in (core-inbox §1). */
export const defaultLandingPath = '/customer-service/inbox';

/** Finds the route-table row for a concrete path (trailing slash ignored). */
export function matchRoute(pathname: string): RouteDefinition | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const parts = clean.split('/');
  return routeTable.find((candidate) => {
    const pattern = candidate.path.split('/');
    if (pattern.length !== parts.length) return false;
    return pattern.every((segment, i) => segment.startsWith('$') || segment === parts[i]);
  });
}

/** True when the path is one of the public routes or below one (e.g. /reset/phone). */
export function isPublicPath(pathname: string): boolean {
  return publicPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}
