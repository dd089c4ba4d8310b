import { Alert, Badge, Box, Button, Card, Group, Menu, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBell } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { activatePush, deactivatePush, pushStateQueryKey, pushStateQueryOptions } from './push.queries';

/** The activation state machine both places share: activate, failed with retry, or active. */
function PushControls({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useQuery(pushStateQueryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: pushStateQueryKey });
  const activate = useMutation({ mutationFn: activatePush, onSettled: refresh });
  const deactivate = useMutation({ mutationFn: deactivatePush, onSettled: refresh });
  const busy = activate.isPending || deactivate.isPending || state.isPending;

  const activateButton = (
    <Button
      size="xs"
      leftSection={<IconBell size={14} />}
      loading={activate.isPending}
      disabled={busy}
      onClick={() => activate.mutate()}
    >
      {t('push.activate')}
    </Button>
  );

  if (state.data?.supported === false) {
    return (
      <Text size={compact ? 'xs' : 'sm'} c="dimmed">
        {t('push.unsupported')}
      </Text>
    );
  }
  if (activate.isError) {
    return (
      <Alert
        color="red"
        variant="light"
        p={compact ? 'xs' : undefined}
        icon={compact ? undefined : <IconAlertCircle size={18} />}
        title={t('push.activationFailed')}
        role="alert"
      >
        <Stack gap="xs" align="flex-start">
          {compact ? null : <Text size="sm">{t('push.activationFailedHint')}</Text>}
          {activateButton}
        </Stack>
      </Alert>
    );
  }
  if (state.data?.active) {
    return (
      <Group justify="space-between" wrap="nowrap">
        <Badge variant="dot" color="green" tt="none" data-testid="push-active">
          {t('push.active')}
        </Badge>
        <Button
          size="xs"
          variant="subtle"
          color="gray"
          loading={deactivate.isPending}
          disabled={busy}
          onClick={() => deactivate.mutate()}
        >
          {t('push.deactivate')}
        </Button>
      </Group>
    );
  }
  return <Group>{activateButton}</Group>;
}

/**
 * The account page's push card (issue 14): "Aktifkan notifikasi" asks for permission,
 * subscribes this browser and stores it for the session. Any failure shows the spec's
 * "push notification activation failed" with the activate button to try again.
 */
export function PushActivation() {
  const { t } = useTranslation();
  return (
    <Card padding="lg" data-testid="push-activation">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="brand" size={36} radius="md" aria-hidden>
            <IconBell size={20} />
          </ThemeIcon>
          <Stack gap={2}>
            <Title order={2} fz="md" fw={650}>
              {t('push.title')}
            </Title>
            <Text size="xs" c="dimmed" lh={1.5}>
              {t('push.description')}
            </Text>
          </Stack>
        </Group>
        <PushControls compact={false} />
      </Stack>
    </Card>
  );
}

/** The same controls in the user menu, where agents without the account page find them. */
export function PushMenuSection() {
  const { t } = useTranslation();
  return (
    <>
      <Menu.Label>{t('push.title')}</Menu.Label>
      <Box px="sm" pb="xs" data-testid="push-menu-section">
        <PushControls compact />
      </Box>
    </>
  );
}
