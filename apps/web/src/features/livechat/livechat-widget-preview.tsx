import {
  Avatar,
  Box,
  Card,
  Checkbox,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textColourOn, type WidgetFormValues } from './livechat-form';

const validColour = (colour: string) => (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(colour) ? colour : '#0C8F6A');

/** A field of the preview's pre-chat form: a label over an empty box. */
function PreviewField({ label, required }: { label: string; required: boolean }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={500}>
        {label || '—'}
        {required ? (
          <Text span c="red">
            {' '}
            *
          </Text>
        ) : null}
      </Text>
      <Box h={28} bg="white" style={{ border: '1px solid #dee2e6', borderRadius: 6 }} />
    </Stack>
  );
}

/**
 * How the widget will look on the site with the settings as typed: the opened panel with
 * its greeting and pre-chat form, above the chat bubble, in the chosen colour.
 */
export function LivechatWidgetPreview({ values }: { values: WidgetFormValues }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'online' | 'offline'>('online');
  const colour = validColour(values.colour);
  const onColour = textColourOn(colour);
  const title = mode === 'online' ? values.onlineTitle : values.offlineTitle;
  const message = mode === 'online' ? values.onlineMessage : values.offlineMessage;

  return (
    <Card padding="lg" data-testid="livechat-preview">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="md" fw={650}>
          {t('livechat.preview.title')}
        </Title>
        <SegmentedControl
          size="xs"
          value={mode}
          onChange={(value) => setMode(value as 'online' | 'offline')}
          data={[
            { value: 'online', label: t('livechat.preview.online') },
            { value: 'offline', label: t('livechat.preview.offline') },
          ]}
        />
      </Group>
      <Box
        p="md"
        style={{
          background: 'var(--app-page-background)',
          borderRadius: 12,
          border: '1px solid var(--app-border-subtle)',
        }}
      >
        <Text size="xs" c="dimmed" mb="xs">
          {t('livechat.preview.siteLabel')}
        </Text>
        <Stack gap="sm" align="flex-end">
          <Box
            w="100%"
            maw={300}
            bg="white"
            style={{ borderRadius: 14, overflow: 'hidden', boxShadow: '0 8px 24px rgba(15, 23, 42, 0.16)' }}
          >
            <Group gap="sm" p="sm" wrap="nowrap" style={{ background: colour, color: onColour }}>
              <Avatar src={values.logoUrl} size={36} radius="xl" color="gray" variant="white">
                {values.name.slice(0, 1).toUpperCase() || '?'}
              </Avatar>
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={650} truncate data-testid="livechat-preview-title">
                  {title || '—'}
                </Text>
                <Text size="xs" lh={1.35} style={{ opacity: 0.9, overflowWrap: 'anywhere' }}>
                  {message}
                </Text>
              </Stack>
            </Group>
            <Stack gap={8} p="sm">
              <PreviewField label={t('livechat.preview.name')} required />
              <PreviewField label={t('livechat.preview.email')} required={mode === 'offline'} />
              {values.prechatFields.map((field) => (
                <PreviewField key={field.key} label={field.label} required={field.required} />
              ))}
              <Checkbox
                size="xs"
                radius={3}
                readOnly
                checked={false}
                label={
                  <Text size="xs" lh={1.35}>
                    {values.consentText || '—'}
                  </Text>
                }
                styles={{ body: { alignItems: 'flex-start' } }}
              />
              <Box
                py={7}
                ta="center"
                style={{
                  background: colour,
                  color: onColour,
                  borderRadius: 8,
                  fontSize: 13,
                  fontWeight: 600,
                }}
              >
                {t('livechat.preview.start')}
              </Box>
            </Stack>
          </Box>
          <UnstyledButton
            aria-label={t('livechat.preview.bubble')}
            w={52}
            h={52}
            style={{
              background: colour,
              color: onColour,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              boxShadow: '0 6px 16px rgba(15, 23, 42, 0.22)',
            }}
          >
            <IconMessageCircle size={26} />
          </UnstyledButton>
        </Stack>
      </Box>
    </Card>
  );
}
