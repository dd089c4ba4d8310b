import {
  businessFields,
  businessModes,
  businessTypes,
  maxBusinessFields,
  type SignupStore,
  signupStore,
} from '@app/contracts';
import { Button, Group, MultiSelect, Radio, Select, Stack, TextInput } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkWith, type FieldErrors, signupMessage } from './signup-form';

/** The store step's values while typed: type and mode may still be unchosen. */
export interface StoreValues {
  name: string;
  businessFields: string[];
  businessType: string | null;
  businessMode: string;
}

export const emptyStore: StoreValues = {
  name: '',
  businessFields: [],
  businessType: null,
  businessMode: 'ONLINE_SHOP',
};

/** Step "Toko" (commerce §6 Business/store): name, up to three business fields, type and mode. */
export function StoreStep(props: {
  values: StoreValues;
  onChange: (values: StoreValues) => void;
  onNext: (store: SignupStore) => void;
}) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const errorOf = (name: string) => (errors[name] ? signupMessage(t, errors[name]) : undefined);
  const set = (changes: Partial<StoreValues>) => {
    setErrors((current) => ({
      ...current,
      ...Object.fromEntries(Object.keys(changes).map((key) => [key, undefined])),
    }));
    props.onChange({ ...props.values, ...changes });
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkWith(signupStore, props.values);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) props.onNext(checked.data);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          name="storeName"
          size="md"
          label={t('signup.store.name')}
          leftSection={<IconBuildingStore size={18} stroke={1.6} />}
          value={props.values.name}
          onChange={(event) => set({ name: event.currentTarget.value })}
          error={errorOf('name')}
          autoFocus
        />
        <MultiSelect
          size="md"
          label={t('signup.store.businessFields')}
          description={t('signup.store.businessFieldsHint', { max: maxBusinessFields })}
          data={businessFields.map((value) => ({ value, label: t(`signup.businessField.${value}`) }))}
          maxValues={maxBusinessFields}
          value={props.values.businessFields}
          onChange={(value) => set({ businessFields: value })}
          error={errorOf('businessFields')}
          searchable
          data-testid="business-fields"
        />
        <Select
          size="md"
          label={t('signup.store.businessType')}
          data={businessTypes.map((value) => ({ value, label: t(`signup.businessType.${value}`) }))}
          value={props.values.businessType}
          onChange={(value) => set({ businessType: value })}
          error={errors.businessType ? t('signup.store.businessTypeRequired') : undefined}
          data-testid="business-type"
        />
        <Radio.Group
          label={t('signup.store.businessMode')}
          value={props.values.businessMode}
          onChange={(value) => set({ businessMode: value })}
        >
          <Group mt={6}>
            {businessModes.map((mode) => (
              <Radio key={mode} value={mode} label={t(`signup.businessMode.${mode}`)} />
            ))}
          </Group>
        </Radio.Group>
        <Button type="submit" size="md" mt="xs">
          {t('signup.next')}
        </Button>
      </Stack>
    </form>
  );
}
