import { Box, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A centred empty state: large icon, optional code, title, explanation and actions.
 * Used for not-found, not-yet-available and load failures so they all look alike.
 */
export function StatusScreen(props: {
  icon: ReactNode;
  code?: string;
  title: ReactNode;
  description: ReactNode;
  actions?: ReactNode;
  color?: string;
  minHeight?: number | string;
}) {
  return (
    <Center mih={props.minHeight ?? 'calc(100vh - 140px)'} px="md">
      <Stack align="center" gap="md" maw={480} ta="center">
        <Box pos="relative">
          <ThemeIcon size={96} radius={48} variant="light" color={props.color ?? 'brand'} aria-hidden>
            {props.icon}
          </ThemeIcon>
        </Box>
        {props.code ? (
          <Text fw={700} c={props.color ?? 'brand'} fz="sm" style={{ letterSpacing: '0.2em' }}>
            {props.code}
          </Text>
        ) : null}
        <Title order={1} fz={26} fw={650}>
          {props.title}
        </Title>
        <Text c="dimmed" lh={1.6}>
          {props.description}
        </Text>
        {props.actions ? (
          <Group mt="sm" justify="center">
            {props.actions}
          </Group>
        ) : null}
      </Stack>
    </Center>
  );
}
