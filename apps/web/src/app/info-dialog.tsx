import { infoDialogMaxWidth } from '@app/contracts';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { closeInfoDialog, useInfoDialogMessage } from './info-dialog-store';

/**
 * The shell's information dialog: title Informasi, one Ok button, at most 464 px wide.
 * Its chunk loads with the first message (see RootLayout), so it opens once mounted and
 * that first message transitions in like every later one.
 */
export function InfoDialog() {
  const { t } = useTranslation();
  const message = useInfoDialogMessage();
  const mounted = useMounted();
  return (
    <Modal
      opened={mounted && message !== null}
      onClose={closeInfoDialog}
      title={t('infoDialog.title')}
      size={infoDialogMaxWidth}
      centered
      radius="md"
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Text size="sm" c="dimmed" lh={1.6}>
        {message}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={closeInfoDialog} miw={96} data-autofocus>
          {t('infoDialog.ok')}
        </Button>
      </Group>
    </Modal>
  );
}
