import { defaultTimezone, type LivechatWidgetView } from '@app/contracts';
import { Badge, Button, Card, Code, CopyButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/display-format';
import { currentLanguage } from '../../shared/i18n';
import { meQueryOptions } from '../identity/identity.queries';

/** The connected / not connected state of a widget (commerce §4). */
export function LivechatConnectionBadge({ connected }: { connected: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={connected ? 'green' : 'gray'}
      tt="none"
      leftSection={connected ? <IconPlugConnected size={12} /> : <IconPlugConnectedX size={12} />}
      data-testid="livechat-connection"
    >
      {connected ? t('livechat.install.connected') : t('livechat.install.notConnected')}
    </Badge>
  );
}

/** The embed code to copy, and whether the widget has loaded on its site yet. */
export function LivechatInstallCard({ widget }: { widget: LivechatWidgetView }) {
  const { t } = useTranslation();
  const me = useQuery(meQueryOptions());
  const timezone = me.data?.client.timezone ?? defaultTimezone;
  return (
    <Card padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="md" fw={650}>
            {t('livechat.sections.install')}
          </Title>
          <LivechatConnectionBadge connected={widget.connected} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('livechat.install.description', { domain: widget.domain })}
        </Text>
        <Code
          block
          data-testid="livechat-embed-code"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {widget.embedCode}
        </Code>
        <Group justify="space-between" wrap="nowrap">
          {widget.connected && widget.connectedAt ? (
            <Text size="xs" c="dimmed">
              {t('livechat.install.connectedSince', {
                date: formatDateTime(widget.connectedAt, currentLanguage(), timezone),
              })}
            </Text>
          ) : (
            <Group gap={8} wrap="nowrap">
              <Loader size={12} />
              <Text size="xs" c="dimmed">
                {t('livechat.install.waiting')}
              </Text>
            </Group>
          )}
          <CopyButton value={widget.embedCode}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'green' : undefined}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
              >
                {copied ? t('livechat.install.copied') : t('livechat.install.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Card>
  );
}
