import { z } from 'zod';

/**
 * Live-chat widget settings (commerce 'Live chat widget', core-inbox §5 pre-chat form):
 * one schema for the server's validation and the settings screen's inline messages.
 */

export const livechatLimits = {
  nameMax: 100,
  titleMax: 30,
  messageMax: 80,
  /** Extra components of the pre-chat form, beside the visitor's name and e-mail. */
  prechatExtraMax: 3,
  prechatLabelMax: 50,
  consentTextMax: 500,
  logoMaxBytes: 5 * 1024 * 1024,
  /** The logo's width and height, each at most this many pixels. */
  logoMaxPixels: 320,
  /** Milliseconds the domain's host may take to resolve. */
  domainLookupTimeoutMs: 3000,
} as const;

export const logoMimeTypes: ReadonlyArray<string> = ['image/png', 'image/jpeg'];
export const logoExtensions: ReadonlyArray<string> = ['png', 'jpg', 'jpeg'];

/** What an extra pre-chat field fills on the contact. */
export const prechatDataChoices = ['phone', 'email', 'orderNumber', 'address', 'company', 'note'] as const;
export type PrechatDataChoice = (typeof prechatDataChoices)[number];

/** The widget's error texts; the screen finds its translation by text. */
export const livechatErrors = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name is too long',
  domainRequired: 'Domain is required',
  domainScheme: 'Domain must start with http:// or https://',
  domainInvalid: 'Domain is invalid',
  domainNotFound: 'Domain not found',
  domainDuplicate: 'Domain already registered',
  logoRequired: 'Logo is required',
  logoNotFound: 'Logo not found',
  logoType: 'Logo must be a png, jpg or jpeg image',
  logoSize: 'Logo must be at most 5 MB',
  logoDimensions: 'Logo must be at most 320x320 pixels',
  colourInvalid: 'Colour must be a hex colour such as #2563EB',
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be at most 30 characters',
  messageRequired: 'Message is required',
  messageTooLong: 'Message must be at most 80 characters',
  prechatTooMany: 'At most 3 extra components',
  labelRequired: 'Field label is required',
  labelTooLong: 'Field label is too long',
  customizedDataRequired: 'Customized data is required',
  customizedDataDuplicate: 'Customized data must be unique',
  consentRequired: 'Consent box text is required',
  consentTooLong: 'Consent box text is too long',
  widgetNotFound: 'Live chat widget not found',
} as const;
export type LivechatErrorKey = keyof typeof livechatErrors;

/** The catalogue key of a widget error text, also when the server prefixed the field path. */
export function livechatErrorKeyOf(message: string | undefined): LivechatErrorKey | undefined {
  if (!message) return undefined;
  const text = message.replace(/^[\w.[\]]+: /, '');
  return (Object.keys(livechatErrors) as LivechatErrorKey[]).find((key) => livechatErrors[key] === text);
}

const required = (text: string) => z.string({ error: text }).trim().min(1, text);

const title = required(livechatErrors.titleRequired).max(
  livechatLimits.titleMax,
  livechatErrors.titleTooLong,
);
const message = required(livechatErrors.messageRequired).max(
  livechatLimits.messageMax,
  livechatErrors.messageTooLong,
);

export const prechatField = z.object({
  label: required(livechatErrors.labelRequired).max(
    livechatLimits.prechatLabelMax,
    livechatErrors.labelTooLong,
  ),
  customizedData: z.enum(prechatDataChoices, { error: livechatErrors.customizedDataRequired }),
  required: z.boolean(),
});
export type PrechatField = z.infer<typeof prechatField>;

/** The domain as typed: it must name the scheme; the server also checks the host exists. */
export const widgetDomain = required(livechatErrors.domainRequired)
  .regex(/^https?:\/\//i, livechatErrors.domainScheme)
  .refine((value) => {
    try {
      return new URL(value).hostname.length > 0;
    } catch {
      return false;
    }
  }, livechatErrors.domainInvalid);

/** Create and update body: every field is required before saving (commerce §5). */
export const livechatWidgetBody = z.object({
  name: required(livechatErrors.nameRequired).max(livechatLimits.nameMax, livechatErrors.nameTooLong),
  domain: widgetDomain,
  logoFileId: z.string({ error: livechatErrors.logoRequired }).uuid(livechatErrors.logoRequired),
  colour: z
    .string({ error: livechatErrors.colourInvalid })
    .trim()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, livechatErrors.colourInvalid),
  onlineTitle: title,
  onlineMessage: message,
  offlineTitle: title,
  offlineMessage: message,
  prechatFields: z
    .array(prechatField)
    .max(livechatLimits.prechatExtraMax, livechatErrors.prechatTooMany)
    .superRefine((fields, context) => {
      const seen = new Set<string>();
      fields.forEach((field, index) => {
        if (seen.has(field.customizedData))
          context.addIssue({
            code: 'custom',
            message: livechatErrors.customizedDataDuplicate,
            path: [index, 'customizedData'],
          });
        seen.add(field.customizedData);
      });
    }),
  consentText: required(livechatErrors.consentRequired).max(
    livechatLimits.consentTextMax,
    livechatErrors.consentTooLong,
  ),
});
export type LivechatWidgetBody = z.infer<typeof livechatWidgetBody>;

/** A widget as the settings screens show it. */
export const livechatWidgetView = z.object({
  id: z.string().uuid(),
  channelAccountId: z.string().uuid(),
  name: z.string(),
  /** The origin the widget runs on, as `https://host[:port]`. */
  domain: z.string(),
  logoFileId: z.string().uuid().nullable(),
  /** A link to the logo that works for a limited time. */
  logoUrl: z.string().nullable(),
  colour: z.string(),
  onlineTitle: z.string(),
  onlineMessage: z.string(),
  offlineTitle: z.string(),
  offlineMessage: z.string(),
  prechatFields: z.array(prechatField),
  consentText: z.string(),
  /** True once the widget has loaded on its domain. */
  connected: z.boolean(),
  connectedAt: z.string().nullable(),
  /** The script tag to put on the site. */
  embedCode: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LivechatWidgetView = z.infer<typeof livechatWidgetView>;

export const livechatWidgetListResponse = z.object({ content: z.array(livechatWidgetView) });

/** Topic of the event a widget's creation, change or removal writes (client room). */
export const livechatWidgetTopics = { changed: 'livechat.widget_changed' } as const;
export const livechatWidgetChangedPayload = z.object({
  widgetId: z.string().uuid(),
  change: z.enum(['created', 'updated', 'deleted', 'connected']),
});
