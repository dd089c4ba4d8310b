import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The title block every screen starts with. */
export function PageHeader({ title, description }: { title: ReactNode; description?: ReactNode }) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={1} fz={24} fw={650} style={{ letterSpacing: '-0.01em' }}>
        {title}
      </Title>
      {description ? (
        <Text c="dimmed" size="sm" maw={640}>
          {description}
        </Text>
      ) : null}
    </Stack>
  );
}
