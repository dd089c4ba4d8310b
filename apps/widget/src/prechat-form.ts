import type { VisitorRegistrationBody, WidgetPublicConfig } from '@app/contracts';
import { el } from './dom';
import type { Texts } from './locales';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^\+?[0-9 ()-]{6,20}$/;

interface FieldInput {
  key: string;
  input: HTMLInputElement;
  error: HTMLElement;
  required: boolean;
}

/**
 * The pre-chat form (core-inbox §5): the visitor's name, an e-mail (required when no
 * agent is online, so the business can answer), the widget's extra fields, and the
 * consent box. `submit` gets a valid body and answers an error text or null.
 */
export function prechatForm(
  config: WidgetPublicConfig,
  texts: Texts,
  submit: (body: VisitorRegistrationBody) => Promise<string | null>,
): HTMLElement {
  const inputs: FieldInput[] = [];
  const field = (key: string, label: string, type: string, required: boolean): HTMLElement => {
    const input = el('input', { type, name: key, required, autocomplete: autocompleteOf(key) });
    const error = el('span', { cls: 'err', role: 'alert' });
    inputs.push({ key, input, error, required });
    return el('label', {}, [label, input, error]);
  };

  const emailField = config.prechatFields.find((item) => item.customizedData === 'email');
  const emailRequired = !config.online || Boolean(emailField?.required);
  const extra = config.prechatFields.filter((item) => item.customizedData !== 'email');
  const consent = el('input', { type: 'checkbox', name: 'consent' });
  const consentError = el('span', { cls: 'err', role: 'alert' });
  const formError = el('span', { cls: 'err', role: 'alert' });
  const button = el('button', { type: 'submit', cls: 'primary', text: texts.startChat });

  const form = el('form', { novalidate: true }, [
    field('name', texts.nameLabel, 'text', true),
    field(
      'email',
      emailField?.label ?? (emailRequired ? texts.emailLabel : texts.emailOptional),
      'email',
      emailRequired,
    ),
    ...extra.map((item) =>
      field(item.customizedData, item.label, item.customizedData === 'phone' ? 'tel' : 'text', item.required),
    ),
    el('label', { cls: 'check' }, [consent, el('span', { text: config.consentText })]),
    consentError,
    emailRequired ? el('span', { cls: 'note', text: texts.emailOffline }) : null,
    formError,
    button,
  ]);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let valid = true;
    const values: Record<string, string> = {};
    for (const item of inputs) {
      const value = item.input.value.trim();
      let problem = '';
      if (item.required && !value) problem = texts.required;
      else if (item.key === 'email' && value && !emailPattern.test(value)) problem = texts.invalidEmail;
      else if (item.key === 'phone' && value && !phonePattern.test(value)) problem = texts.invalidPhone;
      item.error.textContent = problem;
      if (problem) valid = false;
      if (value) values[item.key] = value;
    }
    consentError.textContent = consent.checked ? '' : texts.consentRequired;
    if (!valid || !consent.checked) return;
    const { name, email, phone, ...fields } = values;
    button.disabled = true;
    button.textContent = texts.starting;
    formError.textContent = '';
    void submit({ name, email, phone, fields, consent: true }).then((problem) => {
      button.disabled = false;
      button.textContent = texts.startChat;
      formError.textContent = problem ?? '';
    });
  });
  return form;
}

function autocompleteOf(key: string): string {
  if (key === 'name') return 'name';
  if (key === 'email') return 'email';
  if (key === 'phone') return 'tel';
  return 'off';
}
