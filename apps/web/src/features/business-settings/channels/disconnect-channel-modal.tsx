import type { ChannelAccountView, ErrorObject } from '@app/contracts';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../shared/snackbar-store';
import {
  channelAccountsKey,
  channelErrorKeyOf,
  channelErrorText,
  disconnectChannelAccount,
} from './channel-accounts.queries';

/** Asks before disconnecting a channel account, then removes it and refreshes the list. */
export function DisconnectChannelModal({
  account,
  onClose,
}: {
  account: ChannelAccountView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [busy, setBusy] = useState(false);
  // Kept while the modal animates its closing, so the text does not blank out.
  const [shown, setShown] = useState<ChannelAccountView | null>(account);

  useEffect(() => {
    if (!account) return;
    setShown(account);
    setFailure(null);
  }, [account]);

  async function confirm() {
    if (!account) return;
    setBusy(true);
    const result = await disconnectChannelAccount(account);
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error);
      // Already gone (another tab, another admin): the list should stop showing it.
      if (channelErrorKeyOf(result.error.message) === 'notFound')
        void queryClient.invalidateQueries({ queryKey: channelAccountsKey });
      return;
    }
    showSnackbar('bottom', t('businessSettings.disconnect.done', { name: account.name }), 'success');
    await queryClient.invalidateQueries({ queryKey: channelAccountsKey });
    onClose();
  }

  return (
    <Modal
      opened={account !== null}
      onClose={onClose}
      title={<Text fw={650}>{t('businessSettings.disconnect.title')}</Text>}
      size={440}
      centered
    >
      <Stack>
        <Text size="sm">{t('businessSettings.disconnect.body', { name: shown?.name ?? '' })}</Text>
        {failure ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {channelErrorText(t, failure)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('businessSettings.disconnect.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={confirm}>
            {t('businessSettings.disconnect.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
