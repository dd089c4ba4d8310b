import { type ChannelCode, channels } from '@app/contracts';
import { Badge, type BadgeProps, ThemeIcon } from '@mantine/core';
import {
  IconBrandInstagram,
  IconBrandLine,
  IconBrandMessenger,
  IconBrandTelegram,
  IconBrandViber,
  IconBrandWhatsapp,
  IconBuildingStore,
  IconMail,
  IconMessageCircle,
  type IconProps,
  IconShoppingBag,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

/** The icon of each channel (brand icons where one exists, a shop for marketplaces). */
export const channelIcons: Record<ChannelCode, ComponentType<IconProps>> = {
  WAP: IconBrandWhatsapp,
  WPU: IconBrandWhatsapp,
  IGM: IconBrandInstagram,
  MSG: IconBrandMessenger,
  TPD: IconShoppingBag,
  LZD: IconShoppingBag,
  SHP: IconBuildingStore,
  VBR: IconBrandViber,
  LNE: IconBrandLine,
  TLG: IconBrandTelegram,
  LVC: IconMessageCircle,
  EML: IconMail,
};

/** The channel's icon in its brand colour (the colours live in the contracts' channel table). */
export function ChannelIcon({ code, size = 16 }: { code: ChannelCode; size?: number }) {
  const Icon = channelIcons[code];
  return (
    <ThemeIcon
      size={size + 8}
      radius="xl"
      variant="light"
      color={channels[code].colour}
      aria-label={channels[code].name}
      role="img"
    >
      <Icon size={size} stroke={1.8} />
    </ThemeIcon>
  );
}

/** A channel as a small labelled badge: brand names are not translated. */
export function ChannelBadge({ code, size = 'sm' }: { code: ChannelCode; size?: BadgeProps['size'] }) {
  const Icon = channelIcons[code];
  return (
    <Badge
      size={size}
      variant="light"
      color={channels[code].colour}
      tt="none"
      fw={600}
      radius="sm"
      leftSection={<Icon size={12} stroke={2} />}
      styles={{ root: { flexShrink: 0 } }}
    >
      {channels[code].name}
    </Badge>
  );
}
