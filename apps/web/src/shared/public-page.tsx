import { Alert, Box, Card, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { BrandMark } from './brand-mark';
import { LanguageSwitch } from './language-switch';

/**
 * The frame of a page shown before sign-in (forgot password, reset by phone, sign-up,
 * about): the brand and the language switch on top, one centred card below.
 */
export function PublicPageFrame({
  cardWidth,
  testId,
  children,
}: {
  cardWidth: number;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)" p={{ base: 'md', sm: 'xl' }}>
      <Group justify="space-between" mb="xl">
        <BrandMark />
        <LanguageSwitch size="sm" />
      </Group>
      <Center>
        <Card w={cardWidth} maw="100%" padding="xl" data-testid={testId}>
          {children}
        </Card>
      </Center>
    </Box>
  );
}

/** The last step of a flow that worked: a tick, what happened, and the way on. */
export function FlowDone({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <Stack align="center" ta="center" gap="md" py="md">
      <ThemeIcon size={72} radius={36} variant="light" aria-hidden>
        <IconCircleCheck size={40} />
      </ThemeIcon>
      <Title order={1} fz={24} fw={650}>
        {title}
      </Title>
      <Text c="dimmed">{text}</Text>
      {action}
    </Stack>
  );
}

/** A flow step's failure (an alert) and notice (a status line), each shown only when present. */
export function FlowMessages({ failure, notice }: { failure: string | null; notice: string | null }) {
  return (
    <>
      {failure ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {failure}
        </Alert>
      ) : null}
      {notice ? (
        <Alert color="brand" variant="light" role="status">
          {notice}
        </Alert>
      ) : null}
    </>
  );
}
