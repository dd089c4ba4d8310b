import { z } from 'zod';

/**
 * The website live chat as the visitor's widget sees it (channel-protocols §11): the public
 * widget configuration, the visitor's registration, and the frames of the visitor socket
 * at /api/livechat/ws. The widget imports only types from here, so zod stays out of its
 * bundle; the server validates every frame with these schemas.
 */

/** Limits the visitor side enforces. */
export const visitorChatLimits = {
  /** Longest message body, in characters. */
  bodyMax: 4096,
  /** Messages one visitor may send in one window before frames are refused. */
  messagesPerWindow: 20,
  windowMs: 30_000,
  /** Messages sent per page when a socket catches up; a resume reads up to `resumePages`. */
  resumePage: 200,
  resumePages: 5,
  /** A visitor token lives this long; the widget asks for a new one after it expires. */
  tokenTtlDays: 30,
  nameMax: 150,
  fieldValueMax: 200,
  /** Visitor registrations per address per window. */
  registrationsPerWindow: 20,
  registrationWindowMs: 10 * 60_000,
} as const;

/** The audience of a visitor token, so that it is never taken for an agent's access token. */
export const visitorTokenAudience = 'livechat-visitor';

/** One extra field of the pre-chat form: its label and the contact field it fills. */
export const visitorPrechatField = z.object({
  label: z.string(),
  customizedData: z.string(),
  required: z.boolean(),
});
export type VisitorPrechatField = z.infer<typeof visitorPrechatField>;

/** GET /api/livechat/widget/:widgetId/config: what the widget shows before the chat starts. */
export const widgetPublicConfig = z.object({
  widgetId: z.string().uuid(),
  name: z.string(),
  colour: z.string(),
  /** A signed link to the logo, or null when the widget has none (the widget shows an initial). */
  logoUrl: z.string().nullable(),
  /** True when at least one agent of the business is online. */
  online: z.boolean(),
  onlineTitle: z.string(),
  onlineMessage: z.string(),
  offlineTitle: z.string(),
  offlineMessage: z.string(),
  prechatFields: z.array(visitorPrechatField),
  consentText: z.string(),
});
export type WidgetPublicConfig = z.infer<typeof widgetPublicConfig>;

/** POST /api/livechat/widget/:widgetId/visitors: the pre-chat form. */
export const visitorRegistrationBody = z.object({
  name: z.string().trim().min(1).max(visitorChatLimits.nameMax),
  email: z.string().trim().email().max(254).optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,20}$/)
    .optional(),
  /** Answers to the extra fields, keyed by their customized-data choice. */
  fields: z.record(z.string().max(64), z.string().trim().max(visitorChatLimits.fieldValueMax)).default({}),
  consent: z.literal(true),
});
export type VisitorRegistrationBody = z.infer<typeof visitorRegistrationBody>;

export const visitorRegistrationResponse = z.object({
  /** Signed visitor token: the widget keeps it in localStorage and sends it on every call. */
  token: z.string(),
  visitorId: z.string().uuid(),
  expiresAt: z.string(),
});
export type VisitorRegistrationResponse = z.infer<typeof visitorRegistrationResponse>;

/** A file as the widget shows it: uploaded by the visitor or sent by an agent. */
export const visitorAttachment = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  type: z.enum(['image', 'audio', 'video', 'document']),
  url: z.string(),
});
export type VisitorAttachment = z.infer<typeof visitorAttachment>;

/** Frames the widget sends. `id` is the message's client id, a UUID the widget made. */
export const visitorClientFrame = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'),
    id: z.string().uuid(),
    /** Length and emptiness are checked by the server so the widget gets a precise error. */
    body: z.string().default(''),
    attachmentIds: z.array(z.string().uuid()).max(10).default([]),
    /** When the visitor wrote it (epoch milliseconds); informative only. */
    ts: z.number().optional(),
  }),
  z.object({ type: z.literal('typing'), typing: z.boolean() }),
  z.object({ type: z.literal('read'), upToServerId: z.number().int().positive() }),
  z.object({ type: z.literal('delivered'), upToServerId: z.number().int().positive() }),
  z.object({ type: z.literal('ping') }),
]);
export type VisitorClientFrame = z.infer<typeof visitorClientFrame>;

export const visitorErrorCodes = [
  'rate_limited',
  'empty',
  'too_long',
  'attachment',
  'invalid',
  'unavailable',
] as const;
export type VisitorErrorCode = (typeof visitorErrorCodes)[number];

/** Frames the server sends. Server times (`ts`) are ISO instants. */
export const visitorServerFrame = z.discriminatedUnion('type', [
  /** The socket is ready and has sent everything the visitor missed. */
  z.object({ type: z.literal('hello'), visitorId: z.string(), lastServerId: z.number().int() }),
  /** The visitor's message is stored as `serverId`; a repeat of the same id gets the same answer. */
  z.object({ type: z.literal('ack'), id: z.string(), serverId: z.number().int(), ts: z.string() }),
  z.object({
    type: z.literal('message'),
    serverId: z.number().int(),
    /** The client id for the visitor's own messages, so another tab or a resume can match it. */
    id: z.string().nullable(),
    from: z.enum(['visitor', 'agent']),
    body: z.string(),
    attachments: z.array(visitorAttachment),
    agentName: z.string().nullable(),
    ts: z.string(),
  }),
  z.object({ type: z.literal('typing'), typing: z.boolean(), name: z.string() }),
  /** An agent has read the visitor's messages up to this one. */
  z.object({ type: z.literal('read'), upToServerId: z.number().int() }),
  /** The delivery state of one message changed (echoed to every tab of the visitor). */
  z.object({
    type: z.literal('status'),
    serverId: z.number().int(),
    status: z.enum(['PENDING', 'SENT', 'DELIVERED', 'READ', 'FAILED']),
  }),
  /** An agent deleted one of their messages: the widget takes it off the screen. */
  z.object({ type: z.literal('deleted'), serverId: z.number().int() }),
  z.object({ type: z.literal('agent_joined'), name: z.string() }),
  z.object({
    type: z.literal('error'),
    code: z.enum(visitorErrorCodes),
    message: z.string(),
    /** The message the error is about, when it is about one. */
    id: z.string().optional(),
  }),
  z.object({ type: z.literal('pong') }),
]);
export type VisitorServerFrame = z.infer<typeof visitorServerFrame>;

/** Texts of the visitor side's errors; the widget shows its own translations by code. */
export const visitorErrors = {
  widgetNotFound: 'Live chat widget not found',
  originNotAllowed: 'This website may not use this live chat widget',
  emailRequiredOffline: 'Email is required when no agent is online',
  requiredField: 'Required fields are empty',
  invalidToken: 'Visitor session is invalid or expired',
  rateLimited: 'Too many messages, please wait a moment',
  emptyMessage: 'Message is empty',
  messageTooLong: 'Message is too long',
  noFile: 'No file was uploaded',
  attachmentType: 'Media type is not supported on this channel',
  attachmentSize: 'Media is too large for this channel',
  invalidFrame: 'Unknown message',
  unavailable: 'The message could not be sent, please try again',
} as const;
