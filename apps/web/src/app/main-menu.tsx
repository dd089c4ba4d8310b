import { appVersion } from '@app/contracts';
import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Session } from '../shared/session';
import { visibleMenu } from './menu-items';

/** The side menu: only the screens this user may read. */
export function MainMenu({ session }: { session: Session }) {
  const { t } = useTranslation();
  const pathname = useLocation({ select: (location) => location.pathname });
  const sections = visibleMenu(session.ability);
  return (
    <>
      <ScrollArea style={{ flex: 1 }} type="scroll">
        <nav aria-label={t('menu.label')}>
          <Stack gap="lg">
            {sections.map((section) => (
              <Stack key={section.labelKey} gap={4}>
                <Text
                  size="xs"
                  fw={700}
                  c="dimmed"
                  tt="uppercase"
                  px="sm"
                  pb={4}
                  style={{ letterSpacing: '0.06em' }}
                >
                  {t(section.labelKey)}
                </Text>
                {section.items.map((item) => (
                  <NavLink
                    key={item.path}
                    component={Link}
                    to={item.path}
                    label={t(item.labelKey)}
                    leftSection={<item.icon size={19} stroke={1.7} />}
                    active={pathname === item.path}
                    variant="light"
                    style={{ borderRadius: 'var(--mantine-radius-md)', fontWeight: 500 }}
                  />
                ))}
              </Stack>
            ))}
          </Stack>
        </nav>
      </ScrollArea>
      <Text size="xs" c="dimmed" px="sm" pt="md">
        {t('brand.version', { version: appVersion })}
      </Text>
    </>
  );
}
