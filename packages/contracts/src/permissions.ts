/**
 * Permission vocabulary of core-inbox §6: roles, actions, the permission names that
 * routes and API endpoints check, and the feature-access bit indexes.
 */
export const roles = ['OWN', 'ADC', 'USC', 'SAD'] as const;
export type Role = (typeof roles)[number];

export const actions = ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const;
export type Action = (typeof actions)[number] | 'manage';

/** Every permission name used by the route table and the API. */
export const permissionNames = [
  'DASHBOARD',
  'CATEGORY',
  'WHATSAPP_BROADCAST',
  'VIBER_BROADCAST',
  'EMAIL_BROADCAST',
  'SMS_BROADCAST_TEMPLATE',
  'VOICE_BROADCAST',
  'ADVANCED_BROADCAST',
  'CALL_CENTER',
  'CALL_CENTER_HISTORY',
  'INBOUND_CALL',
  'CUSTOMER_SERVICE_INBOX',
  'VIEW_FEATURE',
  'CUSTOMER_SERVICE_HISTORY',
  'ADVANCE_SEARCH',
  'CUSTOMER_SERVICE_SETTING',
  'CS_PERFORMANCE',
  'WHATSAPP_TEMPLATE',
  'VIBER_TEMPLATE',
  'EMAIL_TEMPLATE',
  'SHOPIFY',
  'WHATSAPP_CHATBOT',
  'CHAT_CREDITS',
  'WALLET',
  'SETTING_ADMIN',
  'SETTING_STORE',
  'SETTING_PLAN_PRICING',
  'SETTING_ACCOUNT',
  'SETTING_FINANCE',
  'SETTING_LOGS',
  'PRODUCT',
  'WHATSAPP_CATALOGUE',
  'CREATE_PRODUCT',
  'TRANSACTION',
  'CONTACT',
  'SOCIAL_PUBLISH',
  'SOCIAL_COMMENT',
  'CREATE_LIVE_CHAT',
  'EDIT_LIVE_CHAT',
  'CREATE_EMAIL',
  'EDIT_EMAIL',
  'CUSTOM_DASHBOARD',
] as const;
export type PermissionName = (typeof permissionNames)[number];
export type Subject = PermissionName | 'all';

/**
 * What each feature-access bit grants (core-inbox §6). A rule holds when the user's
 * bit and the client's bit at that index are both '1'.
 */
export const permissionBitRules: ReadonlyArray<{
  index: number;
  subject: PermissionName;
  actions: ReadonlyArray<Action>;
}> = [
  { index: 0, subject: 'CUSTOMER_SERVICE_SETTING', actions: ['manage'] },
  { index: 1, subject: 'CUSTOMER_SERVICE_INBOX', actions: ['manage'] },
  { index: 2, subject: 'CUSTOMER_SERVICE_HISTORY', actions: ['READ'] },
  { index: 9, subject: 'TRANSACTION', actions: ['CREATE'] },
  { index: 10, subject: 'CS_PERFORMANCE', actions: ['READ'] },
  { index: 14, subject: 'SETTING_STORE', actions: ['manage'] },
  { index: 15, subject: 'SETTING_ADMIN', actions: ['manage'] },
  { index: 16, subject: 'SETTING_PLAN_PRICING', actions: ['manage'] },
];

/** Advanced search is a client-level switch: client bit 29, read only. */
export const advancedSearchClientIndex = 29;

/** ADC gets everything minus this list; the spec says it is currently empty. */
export const adminNegativeList: ReadonlyArray<PermissionName> = [];

/** Permission names that only accounts in Indonesia may use (Indonesian tax invoicing). */
export const indonesiaOnlyPermissions: ReadonlyArray<PermissionName> = ['SETTING_FINANCE'];
