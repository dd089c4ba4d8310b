import { livechatErrorKeyOf } from '@app/contracts';
import { Avatar, Button, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from './livechat.queries';
import { logoFileError } from './livechat-form';

interface LogoInputProps {
  logoUrl: string | null;
  error?: string;
  onUploaded: (logo: { fileId: string; url: string }) => void;
  onError: (messageKey: string) => void;
}

/** Picks, checks and uploads the widget logo, showing it as soon as it is chosen. */
export function LivechatLogoInput({ logoUrl, error, onUploaded, onError }: LogoInputProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [localPreview, setLocalPreview] = useState<string | null>(null);

  async function choose(file: File | null) {
    if (!file) return;
    const refusal = await logoFileError(file);
    if (refusal) {
      onError(`livechat.errors.${refusal}`);
      return;
    }
    const preview = URL.createObjectURL(file);
    setLocalPreview(preview);
    setUploading(true);
    const result = await uploadFile(file);
    setUploading(false);
    if (result.ok) onUploaded(result.data);
    else {
      URL.revokeObjectURL(preview);
      setLocalPreview(null);
      const key = livechatErrorKeyOf(result.error.message);
      onError(key ? `livechat.errors.${key}` : 'livechat.errors.logoUploadFailed');
    }
  }

  return (
    <Input.Wrapper label={t('livechat.fields.logo')} withAsterisk error={error}>
      <Group gap="md" mt={6} wrap="nowrap">
        <Avatar
          src={localPreview ?? logoUrl}
          alt={t('livechat.fields.logoAlt')}
          size={64}
          radius="md"
          color="gray"
          variant="light"
        >
          <IconPhoto size={26} stroke={1.5} />
        </Avatar>
        <Stack gap={6}>
          <FileButton onChange={(file) => void choose(file)} accept="image/png,image/jpeg">
            {(props) => (
              <Button
                {...props}
                variant="default"
                size="xs"
                loading={uploading}
                leftSection={<IconUpload size={14} />}
                data-testid="livechat-logo-button"
              >
                {logoUrl || localPreview ? t('livechat.fields.logoChange') : t('livechat.fields.logoUpload')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('livechat.fields.logoHint')}
          </Text>
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
