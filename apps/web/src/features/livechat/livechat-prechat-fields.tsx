import { livechatLimits, type PrechatDataChoice, prechatDataChoices } from '@app/contracts';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type FieldErrors, fieldErrorText, newRowKey, type PrechatRow } from './livechat-form';

interface PrechatFieldsProps {
  rows: PrechatRow[];
  errors: FieldErrors;
  onChange: (rows: PrechatRow[]) => void;
}

/**
 * The extra components of the pre-chat form (core-inbox §5): at most three, each with a
 * label, the contact data it fills (each choice once) and whether the visitor must answer.
 */
export function LivechatPrechatFields({ rows, errors, onChange }: PrechatFieldsProps) {
  const { t } = useTranslation();
  const max = livechatLimits.prechatExtraMax;
  const update = (index: number, change: Partial<PrechatRow>) =>
    onChange(rows.map((row, position) => (position === index ? { ...row, ...change } : row)));

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('livechat.prechat.description', { max })}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" fs="italic">
          {t('livechat.prechat.empty')}
        </Text>
      ) : null}
      {rows.map((row, index) => {
        const taken = new Set(
          rows.filter((_, position) => position !== index).map((other) => other.customizedData),
        );
        return (
          <Paper key={row.key} withBorder p="sm" radius="md" data-testid="livechat-prechat-row">
            <Group align="flex-start" gap="sm" wrap="nowrap">
              <TextInput
                flex={1}
                label={t('livechat.prechat.label')}
                placeholder={t('livechat.prechat.labelPlaceholder')}
                withAsterisk
                value={row.label}
                maxLength={livechatLimits.prechatLabelMax}
                error={fieldErrorText(t, errors[`prechatFields.${index}.label`])}
                onChange={(event) => update(index, { label: event.currentTarget.value })}
              />
              <Select
                w={180}
                label={t('livechat.prechat.customizedData')}
                placeholder={t('livechat.prechat.customizedDataPlaceholder')}
                withAsterisk
                value={row.customizedData}
                data={prechatDataChoices.map((choice) => ({
                  value: choice,
                  label: t(`livechat.choices.${choice}`),
                  disabled: taken.has(choice),
                }))}
                error={fieldErrorText(t, errors[`prechatFields.${index}.customizedData`])}
                onChange={(value) =>
                  update(index, { customizedData: (value as PrechatDataChoice | null) ?? null })
                }
                comboboxProps={{ withinPortal: true }}
              />
              <Stack gap={4} align="center" pt={4}>
                <Text size="sm" fw={500}>
                  {t('livechat.prechat.required')}
                </Text>
                <Switch
                  aria-label={t('livechat.prechat.required')}
                  checked={row.required}
                  onChange={(event) => update(index, { required: event.currentTarget.checked })}
                  mt={6}
                />
              </Stack>
              <Tooltip label={t('livechat.prechat.remove')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t('livechat.prechat.remove')}
                  onClick={() => onChange(rows.filter((_, position) => position !== index))}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        );
      })}
      {errors.prechatFields ? (
        <Text size="xs" c="red">
          {fieldErrorText(t, errors.prechatFields)}
        </Text>
      ) : null}
      <Group gap="sm">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= max}
          onClick={() =>
            onChange([...rows, { key: newRowKey(), label: '', customizedData: null, required: false }])
          }
        >
          {t('livechat.prechat.add')}
        </Button>
        {rows.length >= max ? (
          <Text size="xs" c="dimmed">
            {t('livechat.prechat.limitReached', { max })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
