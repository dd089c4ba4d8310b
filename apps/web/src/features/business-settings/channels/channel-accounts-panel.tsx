import {
  type ChannelAccountStatus,
  type ChannelAccountView,
  canRead,
  channelCodes,
  channelManagerRoles,
  channels,
  defaultTimezone,
  matchRoute,
} from '@app/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowRight,
  IconBrandTelegram,
  IconPlugConnected,
  IconPlugConnectedX,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../../shared/api-client';
import { ChannelIcon } from '../../../shared/channel-badge';
import { formatDateTime } from '../../../shared/display-format';
import { currentLanguage } from '../../../shared/i18n';
import { useSession } from '../../../shared/use-session';
import { channelAccountsQueryOptions, channelErrorText } from './channel-accounts.queries';
import { ConnectTelegramModal } from './connect-telegram-modal';
import { DisconnectChannelModal } from './disconnect-channel-modal';

const statusColours: Record<ChannelAccountStatus, string> = {
  CONNECTED: 'green',
  NOT_CONNECTED: 'gray',
  DISCONNECTED: 'red',
};

/** Live-chat widgets are made and removed on the live chat pages, not here. */
const liveChatPath = '/livechat/create';

/** Grouped by channel in the channel table's order, then by name, so rows keep their place. */
function sortedAccounts(accounts: ChannelAccountView[]): ChannelAccountView[] {
  return [...accounts].sort(
    (a, b) =>
      channelCodes.indexOf(a.channel) - channelCodes.indexOf(b.channel) ||
      a.name.localeCompare(b.name) ||
      a.createdAt.localeCompare(b.createdAt),
  );
}

function StatusBadge({ status }: { status: ChannelAccountStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={statusColours[status]} tt="none" radius="sm" fw={600}>
      {t(`businessSettings.channels.status.${status}`)}
    </Badge>
  );
}

/** The account's handle as people type it: a Telegram bot is `@name`, linked to its chat. */
function AccountHandle({ account }: { account: ChannelAccountView }) {
  if (!account.handle) return null;
  if (account.channel !== 'TLG') {
    return (
      <Text size="xs" c="dimmed" truncate>
        {account.handle}
      </Text>
    );
  }
  const username = account.handle.replace(/^@/, '');
  return (
    <Anchor
      href={`https://t.me/${encodeURIComponent(username)}`}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      c="dimmed"
      data-testid="channel-account-handle"
    >
      @{username}
    </Anchor>
  );
}

function LoadingRows() {
  return (
    <Stack gap="xs" aria-busy="true">
      <Skeleton h={52} radius="md" />
      <Skeleton h={52} radius="md" />
      <Skeleton h={52} radius="md" />
    </Stack>
  );
}

function LoadFailed({ detail, onRetry }: { detail: string; onRetry: () => unknown }) {
  const { t } = useTranslation();
  // The generic "request failed" adds nothing under the title; a precise answer does.
  const generic = detail === t('errors.generic');
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      role="alert"
      title={t('businessSettings.channels.loadFailed')}
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">{generic ? t('businessSettings.channels.loadFailedHint') : detail}</Text>
        <Button size="xs" variant="white" color="red" onClick={() => void onRetry()}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

function EmptyState({ canConnect }: { canConnect: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap={6} py={40} ta="center">
      <ThemeIcon variant="light" color="brand" size={56} radius="xl">
        <IconPlugConnected size={28} stroke={1.6} />
      </ThemeIcon>
      <Text fw={600} mt="xs">
        {t('businessSettings.channels.empty')}
      </Text>
      <Text size="sm" c="dimmed" maw={420}>
        {t(
          canConnect ? 'businessSettings.channels.emptyHint' : 'businessSettings.channels.emptyHintReadOnly',
        )}
      </Text>
    </Stack>
  );
}

/**
 * The channel tab: every channel account of the client with its state, connecting a
 * Telegram bot and disconnecting it. Only owners and admins (CREATE / DELETE on
 * SETTING_STORE) see the actions; the server refuses them to anyone else as well.
 */
export function ChannelAccountsPanel() {
  const { t } = useTranslation();
  const session = useSession();
  const accounts = useQuery(channelAccountsQueryOptions());
  const [connecting, setConnecting] = useState(false);
  const [disconnecting, setDisconnecting] = useState<ChannelAccountView | null>(null);

  const ability = session?.ability;
  // "Only owner or admin can add channels": a feature-access grant alone is not enough.
  const managesChannels = Boolean(session && channelManagerRoles.includes(session.claims.role));
  const canConnect = managesChannels && Boolean(ability?.can('CREATE', 'SETTING_STORE'));
  const canDisconnect = managesChannels && Boolean(ability?.can('DELETE', 'SETTING_STORE'));
  const canOpenLiveChat = Boolean(ability && canRead(ability, matchRoute(liveChatPath)?.permission));
  const zone = session?.claims.sub.clientTimezone || defaultTimezone;
  const language = currentLanguage();
  // A client connects Telegram once (multipleConnect in the channel table); the server refuses a
  // second bot, so the button says why before anyone pastes a token.
  const telegramTaken =
    !channels.TLG.multipleConnect && (accounts.data ?? []).some((account) => account.channel === 'TLG');

  const connectButton = (
    <Button
      leftSection={<IconBrandTelegram size={18} stroke={1.8} />}
      onClick={() => setConnecting(true)}
      disabled={!accounts.isSuccess || telegramTaken}
      data-testid="connect-telegram"
    >
      {t('businessSettings.channels.connectTelegram')}
    </Button>
  );

  return (
    <Card padding="lg">
      <Group justify="space-between" mb="sm" wrap="nowrap" gap="lg">
        <Group gap="xs">
          <Title order={2} fz="md" fw={650}>
            {t('businessSettings.channels.title')}
          </Title>
          {accounts.data && accounts.data.length > 0 ? (
            <Badge variant="light" color="gray" radius="sm" tt="none">
              {t('businessSettings.channels.count', { count: accounts.data.length })}
            </Badge>
          ) : null}
        </Group>
        {canConnect ? (
          telegramTaken ? (
            <Tooltip label={t('businessSettings.channels.telegramTaken')} multiline w={260} withArrow>
              <span>{connectButton}</span>
            </Tooltip>
          ) : (
            connectButton
          )
        ) : null}
      </Group>

      {accounts.isPending ? (
        <LoadingRows />
      ) : accounts.isError ? (
        <LoadFailed detail={channelErrorText(t, errorObjectOf(accounts.error))} onRetry={accounts.refetch} />
      ) : accounts.data.length === 0 ? (
        <EmptyState canConnect={canConnect} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing={10} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={200}>{t('businessSettings.channels.columns.channel')}</Table.Th>
                <Table.Th>{t('businessSettings.channels.columns.account')}</Table.Th>
                <Table.Th w={150}>{t('businessSettings.channels.columns.status')}</Table.Th>
                <Table.Th w={170}>{t('businessSettings.channels.columns.connectedAt')}</Table.Th>
                <Table.Th w={190} ta="right">
                  {t('businessSettings.channels.columns.actions')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sortedAccounts(accounts.data).map((account) => (
                <Table.Tr key={account.id} data-testid="channel-account-row">
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <ChannelIcon code={account.channel} size={18} />
                      <Text size="sm" fw={500}>
                        {channels[account.channel].name}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {account.name}
                      </Text>
                      <AccountHandle account={account} />
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={account.status} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={account.connectedAt ? undefined : 'dimmed'}>
                      {account.connectedAt
                        ? formatDateTime(account.connectedAt, language, zone)
                        : t('common.notAvailable')}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {account.channel === 'LVC' && canOpenLiveChat ? (
                      <Button
                        component={Link}
                        to={liveChatPath}
                        variant="subtle"
                        size="xs"
                        rightSection={<IconArrowRight size={14} />}
                      >
                        {t('businessSettings.channels.manageLiveChat')}
                      </Button>
                    ) : account.channel === 'TLG' && canDisconnect ? (
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        leftSection={<IconPlugConnectedX size={14} />}
                        aria-label={t('businessSettings.channels.disconnectLabel', { name: account.name })}
                        onClick={() => setDisconnecting(account)}
                      >
                        {t('businessSettings.channels.disconnect')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <ConnectTelegramModal opened={connecting} onClose={() => setConnecting(false)} />
      <DisconnectChannelModal account={disconnecting} onClose={() => setDisconnecting(null)} />
    </Card>
  );
}
