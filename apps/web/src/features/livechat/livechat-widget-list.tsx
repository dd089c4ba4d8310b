import { Alert, Avatar, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../shared/api-client';
import { widgetListQueryOptions } from './livechat.queries';
import { livechatErrorText } from './livechat-form';
import { LivechatConnectionBadge } from './livechat-install-card';

/** The client's widgets, each linking to its edit screen, so existing ones are easy to find. */
export function LivechatWidgetList({ currentId }: { currentId?: string }) {
  const { t } = useTranslation();
  const widgets = useQuery(widgetListQueryOptions());

  return (
    <Card padding="lg" data-testid="livechat-widget-list">
      <Title order={2} fz="md" fw={650} mb="sm">
        {t('livechat.list.title')}
      </Title>
      {widgets.isPending ? (
        <Stack gap="xs">
          <Skeleton h={48} />
          <Skeleton h={48} />
        </Stack>
      ) : widgets.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
          {livechatErrorText(t, errorObjectOf(widgets.error))}
        </Alert>
      ) : widgets.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('livechat.list.empty')}
        </Text>
      ) : (
        <Stack gap={6}>
          {widgets.data.map((widget) => (
            <Link
              key={widget.id}
              to="/livechat/edit/$id"
              params={{ id: widget.id }}
              aria-label={t('livechat.list.edit', { name: widget.name })}
              style={{ textDecoration: 'none', color: 'inherit' }}
            >
              <Group
                gap="sm"
                wrap="nowrap"
                p="xs"
                style={{
                  borderRadius: 10,
                  border: '1px solid var(--app-border-subtle)',
                  background: widget.id === currentId ? 'var(--mantine-color-brand-0)' : undefined,
                }}
              >
                <Avatar src={widget.logoUrl} size={36} radius="md" color="brand">
                  {widget.name.slice(0, 1).toUpperCase()}
                </Avatar>
                <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" fw={600} truncate>
                    {widget.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {widget.domain}
                  </Text>
                </Stack>
                <LivechatConnectionBadge connected={widget.connected} />
                <IconChevronRight size={16} color="var(--mantine-color-gray-5)" />
              </Group>
            </Link>
          ))}
        </Stack>
      )}
    </Card>
  );
}
