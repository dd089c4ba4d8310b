import type { AppAbility, ClientMembershipView } from '@app/contracts';
import { Badge, Group, Loader, Menu, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconBuildingStore, IconCheck, IconSwitchHorizontal } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeAccessToken, getSession, startSession } from '../../shared/session';
import { showSnackbar } from '../../shared/snackbar-store';
import { useSession } from '../../shared/use-session';
import { clientListQueryOptions, clientSwitchOffer, switchClient } from './client-switch.queries';
import { meQueryOptions } from './identity.queries';
import { setupChallenge } from './mfa.queries';

let dialogOpen = false;
const listeners = new Set<() => void>();
function setDialogOpen(open: boolean) {
  dialogOpen = open;
  for (const listener of listeners) listener();
}
function useDialogOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => dialogOpen,
  );
}

/** The user menu's "Switch client" item; shown only to people who can enter several clients. */
export function ClientSwitchMenuItem() {
  const { t } = useTranslation();
  const me = useQuery(meQueryOptions());
  if (!me.data?.enableMultiClient) return null;
  return (
    <Menu.Item
      leftSection={<IconSwitchHorizontal size={16} />}
      onClick={() => setDialogOpen(true)}
      data-testid="client-switch-menu-item"
    >
      {t('clientSwitch.menuItem')}
    </Menu.Item>
  );
}

/** One client in the list: its name, the person's role there, and whether it is the current one. */
function ClientOption({
  client,
  busy,
  onChoose,
}: {
  client: ClientMembershipView;
  busy: boolean;
  onChoose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      onClick={onChoose}
      disabled={busy}
      data-testid="client-option"
      aria-current={client.current ? 'true' : undefined}
      p="sm"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px solid var(--mantine-color-${client.current ? 'brand-5' : 'gray-3'})`,
      }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <IconBuildingStore size={20} stroke={1.6} />
          <Stack gap={0}>
            <Text fw={600}>{client.name}</Text>
            <Text size="xs" c="dimmed">
              {t(`roles.${client.role}`)}
            </Text>
          </Stack>
        </Group>
        {busy ? <Loader size="xs" /> : null}
        {client.current && !busy ? (
          <Badge variant="light" leftSection={<IconCheck size={12} />}>
            {t('clientSwitch.current')}
          </Badge>
        ) : null}
      </Group>
    </UnstyledButton>
  );
}

/**
 * The client selection dialog (issue 14, multi-client). It opens once after each sign-in
 * of a person who can enter several clients (the home client is already open behind it, so
 * closing it simply stays there), and from the user menu. Choosing another client stores
 * the session the server opened there, drops every cached answer of the old client and
 * goes to the landing path, so every screen shows the new client.
 */
export function ClientSwitchDialog({ landingPathFor }: { landingPathFor: (ability: AppAbility) => string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const me = useQuery(meQueryOptions());
  const opened = useDialogOpen();
  const [switching, setSwitching] = useState<string | null>(null);
  const clients = useQuery({ ...clientListQueryOptions(), enabled: opened });
  const sessionId = session?.claims.sid;

  useEffect(() => {
    if (!me.data?.enableMultiClient || !sessionId || !clientSwitchOffer.isDue(sessionId)) return;
    clientSwitchOffer.markOffered(sessionId);
    setDialogOpen(true);
  }, [me.data?.enableMultiClient, sessionId]);

  useEffect(() => {
    if (!opened || !clients.isError) return;
    showSnackbar('bottom', t('clientSwitch.fetchFailed'), 'error');
    setDialogOpen(false);
  }, [opened, clients.isError, t]);

  async function choose(client: ClientMembershipView) {
    if (client.current) {
      setDialogOpen(false);
      return;
    }
    setSwitching(client.id);
    const result = await switchClient(client.id);
    setSwitching(null);
    if (!result.ok || 'mfaRequired' in result.data) {
      showSnackbar('bottom', t('clientSwitch.switchFailed', { name: client.name }), 'error');
      return;
    }
    setDialogOpen(false);
    if ('mfaSetupRequired' in result.data) {
      // The client requires 2-step and the person has none yet: set it up, as at sign-in.
      setupChallenge.save(result.data.mfaToken);
      await navigate({ to: '/activate-mfa' });
      return;
    }
    const { accessToken, refreshToken } = result.data;
    const sid = decodeAccessToken(accessToken)?.claims.sid;
    if (sid) clientSwitchOffer.markOffered(sid);
    startSession({ accessToken, refreshToken });
    // Every cached answer belonged to the old client: drop them, and refetch what is on screen.
    queryClient.removeQueries({ type: 'inactive' });
    void queryClient.resetQueries();
    const next = getSession();
    await navigate({ href: next ? landingPathFor(next.ability) : '/', replace: true });
  }

  return (
    <Modal
      opened={opened}
      onClose={() => setDialogOpen(false)}
      title={<Text fw={650}>{t('clientSwitch.title')}</Text>}
      centered
      data-testid="client-switch-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('clientSwitch.subtitle')}
        </Text>
        {clients.isPending ? <Loader size="sm" mx="auto" /> : null}
        {clients.data?.content.map((client) => (
          <ClientOption
            key={client.id}
            client={client}
            busy={switching === client.id}
            onChoose={() => void choose(client)}
          />
        ))}
      </Stack>
    </Modal>
  );
}
