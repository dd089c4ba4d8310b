import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The product's logo and name; the name comes from the locale so partner builds can rename it. */
export function BrandMark({ inverted = false, size = 'md' }: { inverted?: boolean; size?: 'md' | 'lg' }) {
  const { t } = useTranslation();
  const large = size === 'lg';
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon
        size={large ? 40 : 34}
        radius="md"
        variant={inverted ? 'white' : 'filled'}
        color="brand"
        aria-hidden
      >
        <IconMessageChatbot size={large ? 24 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text
        fw={700}
        fz={large ? 22 : 18}
        c={inverted ? 'white' : undefined}
        style={{ letterSpacing: '-0.01em' }}
      >
        {t('brand.name')}
      </Text>
    </Group>
  );
}
