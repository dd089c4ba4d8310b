import {
  type ErrorObject,
  type LivechatErrorKey,
  type LivechatWidgetBody,
  type LivechatWidgetView,
  livechatErrorKeyOf,
  livechatLimits,
  livechatWidgetBody,
  logoExtensions,
  logoMimeTypes,
  type PrechatDataChoice,
} from '@app/contracts';
import type { TFunction } from 'i18next';
import { errorText } from '../../shared/i18n';

/** One extra pre-chat field as the form edits it; `key` keeps React rows stable. */
export interface PrechatRow {
  key: string;
  label: string;
  customizedData: PrechatDataChoice | null;
  required: boolean;
}

/** The settings form: the request body plus what only the screen needs (logo preview, row keys). */
export interface WidgetFormValues extends Omit<LivechatWidgetBody, 'prechatFields'> {
  logoUrl: string | null;
  prechatFields: PrechatRow[];
}

/** Field path (`name`, `prechatFields.0.label`) to the locale key or text of its error. */
export type FieldErrors = Record<string, string>;

let rowSequence = 0;
export function newRowKey(): string {
  rowSequence += 1;
  return `row-${rowSequence}`;
}

/** A new widget: texts prefilled in the user's language, the brand colour, nothing uploaded. */
export function emptyWidgetForm(t: TFunction): WidgetFormValues {
  return {
    name: '',
    domain: 'https://',
    logoFileId: '',
    logoUrl: null,
    colour: '#0C8F6A',
    onlineTitle: t('livechat.defaults.onlineTitle'),
    onlineMessage: t('livechat.defaults.onlineMessage'),
    offlineTitle: t('livechat.defaults.offlineTitle'),
    offlineMessage: t('livechat.defaults.offlineMessage'),
    prechatFields: [],
    consentText: t('livechat.defaults.consentText'),
  };
}

export function widgetFormOf(widget: LivechatWidgetView): WidgetFormValues {
  return {
    name: widget.name,
    domain: widget.domain,
    logoFileId: widget.logoFileId ?? '',
    logoUrl: widget.logoUrl,
    colour: widget.colour,
    onlineTitle: widget.onlineTitle,
    onlineMessage: widget.onlineMessage,
    offlineTitle: widget.offlineTitle,
    offlineMessage: widget.offlineMessage,
    prechatFields: widget.prechatFields.map((field) => ({ ...field, key: newRowKey() })),
    consentText: widget.consentText,
  };
}

const messageKeyOf = (message: string) => {
  const key = livechatErrorKeyOf(message);
  return key ? `livechat.errors.${key}` : message;
};

/**
 * Checks the form with the contract the server uses, so every rule it can check without
 * the network (required fields, lengths, colour, pre-chat rules) shows before saving.
 */
export function validateWidgetForm(values: WidgetFormValues): {
  body?: LivechatWidgetBody;
  errors: FieldErrors;
} {
  const parsed = livechatWidgetBody.safeParse({
    ...values,
    prechatFields: values.prechatFields.map(({ label, customizedData, required }) => ({
      label,
      customizedData: customizedData ?? '',
      required,
    })),
  });
  if (parsed.success) return { body: parsed.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    errors[path] ??= messageKeyOf(issue.message);
  }
  // The contract checks uniqueness only once each row is valid; the form shows it at once.
  const seen = new Set<string>();
  values.prechatFields.forEach((row, index) => {
    if (row.customizedData && seen.has(row.customizedData))
      errors[`prechatFields.${index}.customizedData`] ??= 'livechat.errors.customizedDataDuplicate';
    if (row.customizedData) seen.add(row.customizedData);
  });
  return { errors };
}

/** Server answers about the domain and logo belong under those fields. */
const fieldOfServerError: Partial<Record<LivechatErrorKey, string>> = {
  domainScheme: 'domain',
  domainInvalid: 'domain',
  domainNotFound: 'domain',
  domainDuplicate: 'domain',
  logoNotFound: 'logoFileId',
  logoType: 'logoFileId',
  logoSize: 'logoFileId',
  logoDimensions: 'logoFileId',
};

/** The field a server error is about (from its `body.<field>:` prefix or its text), if any. */
export function fieldErrorOfServer(error: ErrorObject): FieldErrors | null {
  const key = livechatErrorKeyOf(error.message);
  if (!key) return null;
  const field = error.message.match(/^body\.([\w.]+): /)?.[1] ?? fieldOfServerError[key];
  return field ? { [field]: `livechat.errors.${key}` } : null;
}

/** The text of a field error: a locale key is translated, anything else is shown as it is. */
export function fieldErrorText(t: TFunction, value: string | undefined): string | undefined {
  if (!value) return undefined;
  return value.startsWith('livechat.') ? t(value) : value;
}

/** A failed call in the user's language: the widget's own texts first, then the catalogue's. */
export function livechatErrorText(t: TFunction, error: ErrorObject): string {
  const key = livechatErrorKeyOf(error.message);
  return key ? t(`livechat.errors.${key}`) : errorText(t, error);
}

/** Reads an image's pixel size in the browser; null when it cannot be decoded. */
async function imageSizeOf(file: File): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/** The logo rules checked before uploading (the server checks them again): type, size, pixels. */
export async function logoFileError(file: File): Promise<LivechatErrorKey | null> {
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!logoMimeTypes.includes(file.type) || !logoExtensions.includes(extension)) return 'logoType';
  if (file.size > livechatLimits.logoMaxBytes) return 'logoSize';
  const size = await imageSizeOf(file);
  if (!size) return 'logoType';
  if (size.width > livechatLimits.logoMaxPixels || size.height > livechatLimits.logoMaxPixels)
    return 'logoDimensions';
  return null;
}

/** Black or white, whichever reads better on the colour (for the preview's header and button). */
export function textColourOn(hex: string): string {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? [...value].map((digit) => digit + digit).join('') : value;
  const [r, g, b] = [0, 2, 4].map((index) => Number.parseInt(full.slice(index, index + 2), 16) / 255);
  if ([r, g, b].some(Number.isNaN)) return '#ffffff';
  const linear = (channel: number) =>
    channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return luminance > 0.45 ? '#1a1b1e' : '#ffffff';
}
