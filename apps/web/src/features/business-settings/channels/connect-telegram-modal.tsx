import type { ErrorObject } from '@app/contracts';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconBrandTelegram, IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../shared/snackbar-store';
import {
  channelAccountsKey,
  channelErrorKeyOf,
  channelErrorText,
  checkTelegramToken,
  connectTelegram,
} from './channel-accounts.queries';

const botFatherUrl = 'https://t.me/BotFather';
const steps = ['openBotFather', 'newBot', 'copyToken'] as const;

/** Connects a Telegram bot by its BotFather token; the server checks it with Telegram. */
export function ConnectTelegramModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setToken('');
    setTokenError(null);
    setFailure(null);
  }, [opened]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const checked = checkTelegramToken(token);
    if ('errorKey' in checked) {
      setTokenError(checked.errorKey);
      return;
    }
    setSaving(true);
    const result = await connectTelegram(checked.token);
    setSaving(false);
    if (result.ok) {
      showSnackbar(
        'bottom',
        t('businessSettings.connectTelegram.connected', { name: result.data.name }),
        'success',
      );
      await queryClient.invalidateQueries({ queryKey: channelAccountsKey });
      onClose();
      return;
    }
    // What is wrong with the token itself belongs under the field; the rest above the form.
    if (channelErrorKeyOf(result.error.message) === 'invalidToken') {
      setTokenError('businessSettings.channels.errors.invalidToken');
    } else {
      setFailure(result.error);
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size={540}
      centered
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="#229ED9" radius="xl" size={32} aria-hidden>
            <IconBrandTelegram size={20} stroke={1.8} />
          </ThemeIcon>
          <Text fw={650}>{t('businessSettings.connectTelegram.title')}</Text>
        </Group>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('businessSettings.connectTelegram.intro')}
          </Text>
          <Stack
            component="ol"
            gap="sm"
            p="md"
            m={0}
            style={{
              listStyle: 'none',
              borderRadius: 'var(--mantine-radius-md)',
              background: 'var(--app-page-background)',
            }}
          >
            {steps.map((step, index) => (
              <Group component="li" key={step} gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon size={22} radius="xl" variant="filled" color="brand" fz="xs" fw={700}>
                  {index + 1}
                </ThemeIcon>
                <Text size="sm" style={{ flex: 1 }}>
                  {t(`businessSettings.connectTelegram.steps.${step}`)}
                  {step === 'openBotFather' ? (
                    <>
                      {' '}
                      <Anchor
                        href={botFatherUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        size="sm"
                        fw={600}
                      >
                        {t('businessSettings.connectTelegram.openBotFather')}
                        <IconExternalLink size={13} style={{ marginLeft: 3, verticalAlign: '-2px' }} />
                      </Anchor>
                    </>
                  ) : null}
                </Text>
              </Group>
            ))}
          </Stack>
          {failure ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {channelErrorText(t, failure)}
            </Alert>
          ) : null}
          <TextInput
            label={t('businessSettings.connectTelegram.tokenLabel')}
            description={t('businessSettings.connectTelegram.tokenHint')}
            placeholder="123456789:AAHk3x…"
            value={token}
            onChange={(event) => {
              setToken(event.currentTarget.value);
              setTokenError(null);
            }}
            error={tokenError ? t(tokenError) : undefined}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            required
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('businessSettings.connectTelegram.cancel')}
            </Button>
            <Button type="submit" loading={saving} leftSection={<IconBrandTelegram size={16} stroke={1.8} />}>
              {t('businessSettings.connectTelegram.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
