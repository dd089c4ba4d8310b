import { type SignupAccountBody, signupAccountBody, signupErrorMessages } from '@app/contracts';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAt, IconLock, IconPhone, IconTicket, IconUser } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkWith, type FieldErrors, signupMessage } from './signup-form';

type AccountValues = Required<SignupAccountBody>;

export const emptyAccount: AccountValues = {
  name: '',
  email: '',
  phone: '',
  password: '',
  confirmPassword: '',
  referralCode: '',
};

/** Server texts that belong under one field rather than in the step's alert. */
const fieldOfServerMessage: Record<string, keyof AccountValues> = {
  [signupErrorMessages.emailTaken]: 'email',
  [signupErrorMessages.wabaPhoneTaken]: 'phone',
};

/** The field a server answer is about, if it is about one. */
export function accountFieldOf(message: string): keyof AccountValues | undefined {
  return fieldOfServerMessage[message];
}

/**
 * Step "Akun" (commerce §5): name, e-mail, phone, password twice and an optional referral
 * code, checked with the server's own contract before anything is sent.
 */
export function AccountStep(props: {
  values: AccountValues;
  onChange: (values: AccountValues) => void;
  serverErrors: FieldErrors;
  busy: boolean;
  onSubmit: (body: SignupAccountBody) => void;
}) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const shown = { ...props.serverErrors, ...errors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkWith(signupAccountBody, props.values);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) props.onSubmit(props.values);
  }

  const field = (name: keyof AccountValues) => ({
    name,
    size: 'md' as const,
    label: t(`signup.account.${name}`),
    value: props.values[name],
    error: shown[name] ? signupMessage(t, shown[name]) : undefined,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setErrors((current) => ({ ...current, [name]: undefined }));
      props.onChange({ ...props.values, [name]: value });
    },
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          {...field('name')}
          autoComplete="name"
          leftSection={<IconUser size={18} stroke={1.6} />}
          autoFocus
        />
        <TextInput
          {...field('email')}
          type="email"
          autoComplete="email"
          placeholder={t('signup.account.emailPlaceholder')}
          leftSection={<IconAt size={18} stroke={1.6} />}
        />
        <TextInput
          {...field('phone')}
          type="tel"
          autoComplete="tel"
          placeholder="0812xxxxxxxx"
          description={t('signup.account.phoneHint')}
          leftSection={<IconPhone size={18} stroke={1.6} />}
        />
        <PasswordInput
          {...field('password')}
          autoComplete="new-password"
          description={t('signup.account.passwordHint')}
          leftSection={<IconLock size={18} stroke={1.6} />}
        />
        <PasswordInput
          {...field('confirmPassword')}
          autoComplete="new-password"
          leftSection={<IconLock size={18} stroke={1.6} />}
        />
        <TextInput
          {...field('referralCode')}
          description={t('signup.account.referralHint')}
          leftSection={<IconTicket size={18} stroke={1.6} />}
        />
        <Button type="submit" size="md" mt="xs" loading={props.busy}>
          {t('signup.account.submit')}
        </Button>
      </Stack>
    </form>
  );
}
