import {
  type ErrorObject,
  type LivechatWidgetBody,
  type LivechatWidgetView,
  livechatLimits,
} from '@app/contracts';
import {
  Alert,
  Button,
  Card,
  ColorInput,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconDeviceFloppy, IconWorldWww } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../shared/api-client';
import {
  type FieldErrors,
  fieldErrorOfServer,
  fieldErrorText,
  livechatErrorText,
  validateWidgetForm,
  type WidgetFormValues,
} from './livechat-form';
import { LivechatLogoInput } from './livechat-logo-input';
import { LivechatPrechatFields } from './livechat-prechat-fields';
import { LivechatWidgetPreview } from './livechat-widget-preview';

const swatches = ['#0C8F6A', '#2563EB', '#7C3AED', '#DB2777', '#EA580C', '#CA8A04', '#0F172A'];

interface WidgetFormProps {
  initial: WidgetFormValues;
  submitLabel: string;
  submit: (body: LivechatWidgetBody) => Promise<ApiResult<LivechatWidgetView>>;
  onSaved: (widget: LivechatWidgetView) => void;
  /** Shown above the settings (the install card of a saved widget). */
  before?: ReactNode;
  /** Shown under the preview (the list of widgets). */
  aside?: ReactNode;
  /** Beside the save button (delete). */
  actions?: ReactNode;
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Card padding="lg">
      <Title order={2} fz="md" fw={650} mb={hint ? 4 : 'md'}>
        {title}
      </Title>
      {hint ? (
        <Text size="sm" c="dimmed" mb="md">
          {hint}
        </Text>
      ) : null}
      <Stack gap="md">{children}</Stack>
    </Card>
  );
}

/** `12/30`, red once past the limit. */
function Counter({ value, max }: { value: string; max: number }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c={value.length > max ? 'red' : 'dimmed'} component="span">
      {t('livechat.counter', { count: value.length, max })}
    </Text>
  );
}

/**
 * The widget settings form with its live preview (commerce 'Live chat widget'): every
 * rule the contract can check shows under its field before anything is sent; the
 * domain's existence and uniqueness come back from the server under the domain field.
 */
export function LivechatWidgetForm({
  initial,
  submitLabel,
  submit,
  onSaved,
  before,
  aside,
  actions,
}: WidgetFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<WidgetFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [failure, setFailure] = useState<ErrorObject | null>(null);
  const [saving, setSaving] = useState(false);

  function change(next: Partial<WidgetFormValues>) {
    setValues((current) => ({ ...current, ...next }));
    // Before a first try, editing a field only clears its own message.
    const touched = Object.keys(next);
    if (!attempted)
      setErrors((existing) =>
        Object.fromEntries(
          Object.entries(existing).filter(([path]) => !touched.includes(path.split('.')[0])),
        ),
      );
  }

  // After a first try, the messages follow the typing, so a fixed field clears at once.
  useEffect(() => {
    if (attempted) setErrors(validateWidgetForm(values).errors);
  }, [values, attempted]);

  const text = (
    name: 'name' | 'domain' | 'onlineTitle' | 'onlineMessage' | 'offlineTitle' | 'offlineMessage',
  ) => ({
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      change({ [name]: event.currentTarget.value }),
    error: fieldErrorText(t, errors[name]),
    withAsterisk: true,
    name,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFailure(null);
    const checked = validateWidgetForm(values);
    setErrors(checked.errors);
    if (!checked.body) return;
    setSaving(true);
    const result = await submit(checked.body);
    setSaving(false);
    if (result.ok) {
      onSaved(result.data);
      return;
    }
    const fieldError = fieldErrorOfServer(result.error);
    if (fieldError) setErrors((current) => ({ ...current, ...fieldError }));
    else setFailure(result.error);
  }

  const invalid = attempted && Object.keys(errors).length > 0;

  return (
    <Grid gutter="lg" align="flex-start">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="lg">
            {before}
            {failure ? (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                {livechatErrorText(t, failure)}
              </Alert>
            ) : invalid ? (
              <Alert color="orange" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
                {t('livechat.formInvalid')}
              </Alert>
            ) : null}
            <Section title={t('livechat.sections.general')}>
              <TextInput
                {...text('name')}
                label={t('livechat.fields.name')}
                placeholder={t('livechat.fields.namePlaceholder')}
              />
              <TextInput
                {...text('domain')}
                label={t('livechat.fields.domain')}
                placeholder={t('livechat.fields.domainPlaceholder')}
                description={t('livechat.fields.domainHint')}
                leftSection={<IconWorldWww size={18} stroke={1.6} />}
              />
              <Group align="flex-start" grow wrap="wrap">
                <LivechatLogoInput
                  logoUrl={values.logoUrl}
                  error={fieldErrorText(t, errors.logoFileId)}
                  onUploaded={(logo) => change({ logoFileId: logo.fileId, logoUrl: logo.url })}
                  onError={(messageKey) => setErrors((current) => ({ ...current, logoFileId: messageKey }))}
                />
                <ColorInput
                  label={t('livechat.fields.colour')}
                  withAsterisk
                  format="hex"
                  value={values.colour}
                  onChange={(colour) => change({ colour })}
                  swatches={swatches}
                  swatchesPerRow={7}
                  error={fieldErrorText(t, errors.colour)}
                />
              </Group>
            </Section>

            <Section title={t('livechat.sections.messages')} hint={t('livechat.sections.messagesHint')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <Stack gap="sm">
                  <TextInput
                    {...text('onlineTitle')}
                    label={t('livechat.fields.onlineTitle')}
                    rightSection={<Counter value={values.onlineTitle} max={livechatLimits.titleMax} />}
                    rightSectionWidth={52}
                  />
                  <Textarea
                    {...text('onlineMessage')}
                    label={t('livechat.fields.onlineMessage')}
                    autosize
                    minRows={2}
                    description={<Counter value={values.onlineMessage} max={livechatLimits.messageMax} />}
                  />
                </Stack>
                <Stack gap="sm">
                  <TextInput
                    {...text('offlineTitle')}
                    label={t('livechat.fields.offlineTitle')}
                    rightSection={<Counter value={values.offlineTitle} max={livechatLimits.titleMax} />}
                    rightSectionWidth={52}
                  />
                  <Textarea
                    {...text('offlineMessage')}
                    label={t('livechat.fields.offlineMessage')}
                    autosize
                    minRows={2}
                    description={<Counter value={values.offlineMessage} max={livechatLimits.messageMax} />}
                  />
                </Stack>
              </SimpleGrid>
            </Section>

            <Section title={t('livechat.sections.prechat')}>
              <LivechatPrechatFields
                rows={values.prechatFields}
                errors={errors}
                onChange={(prechatFields) => change({ prechatFields })}
              />
              <Textarea
                label={t('livechat.fields.consentText')}
                description={t('livechat.fields.consentHint')}
                withAsterisk
                autosize
                minRows={2}
                value={values.consentText}
                onChange={(event) => change({ consentText: event.currentTarget.value })}
                error={fieldErrorText(t, errors.consentText)}
              />
            </Section>

            <Group justify="space-between">
              <Group gap="sm">{actions}</Group>
              <Button type="submit" loading={saving} leftSection={<IconDeviceFloppy size={18} />}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <Stack gap="lg" style={{ position: 'sticky', top: 84 }}>
          <LivechatWidgetPreview values={values} />
          {aside}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
