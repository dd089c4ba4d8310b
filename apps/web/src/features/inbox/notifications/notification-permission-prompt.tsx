import { Button, CloseButton, Group, Paper, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The user closed the prompt without deciding; it stays away on this browser. */
const dismissedKey = 'omni.inbox.notificationPromptDismissed';

function currentPermission(): NotificationPermission | 'unsupported' {
  return typeof window.Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * A small card asking to turn desktop notifications on. Browsers expect the request to
 * follow a click, and users trust a question they chose to answer: hence a prompt here
 * rather than a request on load. Nothing shows once the browser has an answer.
 */
export function NotificationPermissionPrompt({ variant = 'card' }: { variant?: 'card' | 'button' }) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(currentPermission);
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(dismissedKey) === '1');

  if (permission === 'unsupported' || dismissed) return null;
  const ask = async () => {
    const answer = await Notification.requestPermission();
    setPermission(answer);
  };

  // In a toolbar only the question itself belongs; the answer needs no space there.
  if (variant === 'button') {
    if (permission !== 'default') return null;
    return (
      <Tooltip label={t('inbox.notifications.promptBody')} withArrow multiline w={260}>
        <Button
          variant="light"
          size="sm"
          leftSection={<IconBellRinging size={16} />}
          onClick={() => void ask()}
          data-testid="notification-prompt"
        >
          {t('inbox.notifications.enableShort')}
        </Button>
      </Tooltip>
    );
  }
  if (permission === 'granted') {
    return (
      <Text size="xs" c="dimmed" data-testid="notifications-enabled">
        {t('inbox.notifications.enabled')}
      </Text>
    );
  }
  if (permission === 'denied') {
    return (
      <Text size="xs" c="dimmed">
        {t('inbox.notifications.blocked')}
      </Text>
    );
  }

  const dismiss = () => {
    localStorage.setItem(dismissedKey, '1');
    setDismissed(true);
  };

  return (
    <Paper withBorder radius="md" p="sm" data-testid="notification-prompt">
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon variant="light" color="brand" size={32} radius="md">
          <IconBellRinging size={18} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1 }}>
          <Text size="sm" fw={600}>
            {t('inbox.notifications.promptTitle')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('inbox.notifications.promptBody')}
          </Text>
          <Group gap="xs">
            <Button size="xs" onClick={() => void ask()}>
              {t('inbox.notifications.enable')}
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={dismiss}>
              {t('inbox.notifications.later')}
            </Button>
          </Group>
        </Stack>
        <CloseButton size="sm" onClick={dismiss} aria-label={t('common.close')} />
      </Group>
    </Paper>
  );
}
