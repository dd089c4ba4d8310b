import { type AppAbility, canRead, matchRoute } from '@app/contracts';
import {
  IconHistory,
  IconInbox,
  IconListDetails,
  IconLock,
  IconMail,
  IconMessageChatbot,
  IconPlugConnected,
  IconShieldLock,
  IconTable,
  IconUserCircle,
  IconUsers,
} from '@tabler/icons-react';

/**
 * The side menu. Only screens that exist are listed; each item's permission comes from
 * the spec's route table, so the menu and the guard can never disagree.
 */
export const menuSections = [
  {
    labelKey: 'menu.customerService',
    items: [
      { path: '/customer-service/inbox', labelKey: 'menu.inbox', icon: IconInbox },
      { path: '/customer-service/ticket-view', labelKey: 'menu.ticketView', icon: IconTable },
      { path: '/customer-service/chat-history', labelKey: 'menu.chatHistory', icon: IconHistory },
    ],
  },
  {
    labelKey: 'menu.channels',
    items: [
      { path: '/setting/store', labelKey: 'menu.channelSettings', icon: IconPlugConnected },
      { path: '/livechat/create', labelKey: 'menu.liveChat', icon: IconMessageChatbot },
    ],
  },
  {
    labelKey: 'menu.settings',
    items: [
      { path: '/setting/account', labelKey: 'menu.account', icon: IconUserCircle },
      { path: '/setting/admin', labelKey: 'menu.adminUsers', icon: IconUsers },
      { path: '/setting/two-factor-verification-setup', labelKey: 'menu.twoFactor', icon: IconShieldLock },
      { path: '/setting/mailbox', labelKey: 'menu.mailbox', icon: IconMail },
      { path: '/setting/logs', labelKey: 'menu.auditLog', icon: IconListDetails },
      { path: '/setting/self-change-password', labelKey: 'menu.changePassword', icon: IconLock },
    ],
  },
] as const;

export type MenuSection = (typeof menuSections)[number];
export type MenuItem = MenuSection['items'][number];

/** The sections and items this user may read; empty sections are dropped. */
export function visibleMenu(ability: AppAbility): Array<{ labelKey: string; items: MenuItem[] }> {
  return menuSections
    .map((section) => ({
      labelKey: section.labelKey,
      items: section.items.filter((item) => canRead(ability, matchRoute(item.path)?.permission)),
    }))
    .filter((section) => section.items.length > 0);
}
