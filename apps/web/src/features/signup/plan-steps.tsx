import { freeTrialDays, type SubscriptionPackage, signupPhone, subscriptionPackages } from '@app/contracts';
import { Badge, Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signupMessage } from './signup-form';

/**
 * Step "WABA": the WhatsApp Business number to connect, or "Lewati" to connect one later
 * from the settings. The number is checked with the contract; the server checks it is free.
 */
export function WabaStep(props: {
  phone: string;
  serverError?: string;
  onChange: (phone: string) => void;
  onBack: () => void;
  onNext: (waba: { phone: string } | null) => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | undefined>();
  const shown = error ?? props.serverError;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = signupPhone.safeParse(props.phone);
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) props.onNext({ phone: parsed.data });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('signup.waba.explain')}
        </Text>
        <TextInput
          name="wabaPhone"
          type="tel"
          size="md"
          label={t('signup.waba.phone')}
          placeholder="0812xxxxxxxx"
          leftSection={<IconBrandWhatsapp size={18} stroke={1.6} />}
          value={props.phone}
          onChange={(event) => {
            setError(undefined);
            props.onChange(event.currentTarget.value);
          }}
          error={shown ? signupMessage(t, shown) : undefined}
        />
        <Group justify="space-between" mt="xs">
          <Button variant="default" onClick={props.onBack}>
            {t('signup.back')}
          </Button>
          <Group gap="xs">
            <Button variant="subtle" onClick={() => props.onNext(null)}>
              {t('signup.waba.skip')}
            </Button>
            <Button type="submit">{t('signup.next')}</Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Step "Langganan": the free trial is chosen unless the person picks a premium package
 * (core-inbox §1: PRO, STARTER and ENTERPRISE); finishing creates the workspace.
 */
export function SubscriptionStep(props: {
  value: SubscriptionPackage;
  busy: boolean;
  onChange: (value: SubscriptionPackage) => void;
  onBack: () => void;
  onFinish: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Radio.Group
        name="subscription"
        value={props.value}
        onChange={(value) => props.onChange(value as SubscriptionPackage)}
      >
        <Stack gap="xs">
          {subscriptionPackages.map((name) => (
            <Radio.Card key={name} value={name} p="md" radius="md" data-testid={`package-${name}`}>
              <Group wrap="nowrap" align="flex-start">
                <Radio.Indicator />
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600}>{t(`signup.package.${name}.name`)}</Text>
                    {name === 'FREE_TRIAL' ? (
                      <Badge size="sm" variant="light">
                        {t('signup.package.trialDays', { days: freeTrialDays })}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {t(`signup.package.${name}.text`)}
                  </Text>
                </Stack>
              </Group>
            </Radio.Card>
          ))}
        </Stack>
      </Radio.Group>
      <Group justify="space-between" mt="xs">
        <Button variant="default" onClick={props.onBack} disabled={props.busy}>
          {t('signup.back')}
        </Button>
        <Button onClick={props.onFinish} loading={props.busy}>
          {t('signup.finish')}
        </Button>
      </Group>
    </Stack>
  );
}
