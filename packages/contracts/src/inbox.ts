import { z } from 'zod';
import { channelCodes } from './channels';

/**
 * The inbox's vocabulary (core-inbox §3, §4; commerce "Chat"): tickets, chat rooms and
 * messages as the API and the sockets carry them.
 */

export const ticketStatuses = ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
/** What a filter may ask for: the stored states plus EXPIRED (open, past its expiry). */
export const ticketStatusFilters = [...ticketStatuses, 'EXPIRED'] as const;
export type TicketStatusFilter = (typeof ticketStatusFilters)[number];
export const openTicketStatuses: ReadonlyArray<TicketStatus> = ['UNASSIGNED', 'ASSIGNED'];

/** Priority: High=1, Medium=2, Normal=3. */
export const ticketPriorities = { HIGH: 1, MEDIUM: 2, NORMAL: 3 } as const;
export const ticketPriority = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type TicketPriority = z.infer<typeof ticketPriority>;

export const messageKinds = ['PublicMessage', 'InternalMessage'] as const;
export type MessageKind = (typeof messageKinds)[number];
export const messageDirections = ['INBOUND', 'OUTBOUND'] as const;
export const messageStatuses = ['PENDING', 'SENT', 'DELIVERED', 'READ', 'FAILED'] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export const senderTypes = ['CUSTOMER', 'AGENT', 'SYSTEM'] as const;

/** Customer-service positions (core-inbox §6). */
export const csPositions = ['SUPERVISOR_1', 'SUPERVISOR_2', 'CS_1', 'CS_2'] as const;
export type CsPosition = (typeof csPositions)[number];

/** The inbox tabs of the ticket list. */
export const inboxTabs = ['mine', 'unassigned', 'all'] as const;
export type InboxTab = (typeof inboxTabs)[number];

/** Limits the inbox enforces. */
export const inboxLimits = {
  /** Longest text of one message, in characters. */
  messageTextMax: 4096,
  /** Most attachments on one message. */
  attachmentsPerMessage: 10,
  /** Rows per page of the ticket list and of search. */
  pageSizeMax: 100,
  pageSizeDefault: 50,
  /** Messages per page of a chat room. */
  messagePageDefault: 50,
  /** Most tickets selectable at once in the ticket list (the spec hides the value). */
  selectionMax: 100,
  /** Chat history download span (commerce: up to 31 days). */
  downloadMaxDays: 31,
  remarksMax: 500,
  tagMax: 50,
  tagsPerTicket: 20,
  subjectMax: 200,
  /** Desktop notifications are batched per chat room over this window. */
  notificationBatchMs: 3000,
} as const;

export const attachmentView = z.object({
  id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  type: z.enum(['image', 'audio', 'video', 'document']),
  /** Where the file can be fetched (a signed link of our own, or a provider's URL). */
  url: z.string(),
});
export type AttachmentView = z.infer<typeof attachmentView>;

export const messageView = z.object({
  id: z.number().int(),
  roomId: z.string().uuid(),
  ticketId: z.number().int(),
  kind: z.enum(messageKinds),
  direction: z.enum(messageDirections),
  sender: z.object({
    type: z.enum(senderTypes),
    id: z.string().nullable(),
    name: z.string(),
  }),
  text: z.string(),
  attachments: z.array(attachmentView),
  quoted: z.object({ id: z.number().int(), text: z.string(), senderName: z.string() }).nullable(),
  status: z.enum(messageStatuses),
  failureReason: z.string().nullable(),
  clientMessageId: z.string().nullable(),
  createdAt: z.string(),
});
export type MessageView = z.infer<typeof messageView>;

export const customerView = z.object({
  contactId: z.string().uuid(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});

/** One row of the ticket list (core-inbox §3 columns) and of the inbox. */
export const ticketSummary = z.object({
  id: z.number().int(),
  roomId: z.string().uuid(),
  channelAccountId: z.string().uuid(),
  mediaPlatform: z.enum(channelCodes),
  customer: customerView,
  status: z.enum(ticketStatuses),
  expired: z.boolean(),
  expiresAt: z.string().nullable(),
  priority: ticketPriority,
  tags: z.array(z.string()),
  categoryId: z.string().uuid().nullable(),
  remarks: z.string().nullable(),
  subject: z.string().nullable(),
  groupId: z.string().uuid().nullable(),
  assigneeId: z.string().uuid().nullable(),
  submitterId: z.string().uuid().nullable(),
  closedBy: z.string().uuid().nullable(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  lastMessageAt: z.string(),
  lastMessagePreview: z.string(),
  unreadCount: z.number().int(),
});
export type TicketSummary = z.infer<typeof ticketSummary>;

export const chatPageQuery = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  roomId: z.string().uuid().optional(),
  /** Messages older than this id (scrolling up). */
  before: z.coerce.number().int().positive().optional(),
  /** Messages newer than this id (catching up after a reconnect). */
  after: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(inboxLimits.messagePageDefault),
});

export const chatPageResponse = z.object({
  /** Oldest first. */
  messages: z.array(messageView),
  hasMore: z.boolean(),
});
export type ChatPageResponse = z.infer<typeof chatPageResponse>;

export const sendMessageBody = z.object({
  ticketId: z.number().int().positive(),
  /** Idempotency key made by the sender; a repeat returns the first message. */
  clientMessageId: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  kind: z.enum(messageKinds).default('PublicMessage'),
  text: z.string().max(inboxLimits.messageTextMax).default(''),
  quotedMessageId: z.number().int().positive().optional(),
  /** Ids of uploaded media files (see upload/getLink). */
  attachmentIds: z.array(z.string().uuid()).max(inboxLimits.attachmentsPerMessage).default([]),
});
export type SendMessageBody = z.infer<typeof sendMessageBody>;

export const ticketDetailResponse = z.object({
  ticket: ticketSummary,
  contact: customerView.extend({
    avatarUrl: z.string().nullable(),
    notes: z.string().nullable(),
    createdAt: z.string(),
  }),
  /** The same contact's other tickets, newest first. */
  earlierTickets: z.array(ticketSummary),
  /** Other open tickets of the same contact (closing one offers to close all). */
  otherActiveTicketIds: z.array(z.number().int()),
  channel: z.object({ accountId: z.string().uuid(), name: z.string() }),
});
export type TicketDetailResponse = z.infer<typeof ticketDetailResponse>;

export const changeStatusBody = z.object({
  ticketId: z.number().int().positive(),
  status: z.enum(['CLOSED', 'RESOLVED']),
  remarks: z.string().trim().min(1).max(inboxLimits.remarksMax),
  /** Also close the contact's other active tickets (after the user confirmed). */
  includeOtherActive: z.boolean().default(false),
});

export const transferBody = z
  .object({
    ticketId: z.number().int().positive(),
    assigneeId: z.string().uuid().nullable().optional(),
    groupId: z.string().uuid().nullable().optional(),
  })
  .refine((body) => body.assigneeId !== undefined || body.groupId !== undefined, {
    message: 'assigneeId or groupId is required',
  });

export const priorityBody = z.object({ ticketId: z.number().int().positive(), priority: ticketPriority });
export const categoryBody = z.object({
  ticketId: z.number().int().positive(),
  categoryId: z.string().uuid().nullable(),
});

export const updateTicketBody = z.object({
  ticketId: z.number().int().positive(),
  subject: z.string().trim().max(inboxLimits.subjectMax).nullable().optional(),
  priority: ticketPriority.optional(),
  categoryId: z.string().uuid().nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(inboxLimits.tagMax)).max(inboxLimits.tagsPerTicket).optional(),
  addTags: z
    .array(z.string().trim().min(1).max(inboxLimits.tagMax))
    .max(inboxLimits.tagsPerTicket)
    .optional(),
  removeTags: z
    .array(z.string().trim().min(1).max(inboxLimits.tagMax))
    .max(inboxLimits.tagsPerTicket)
    .optional(),
});

export const unreadCountResponse = z.object({
  total: z.number().int(),
  tickets: z.array(z.object({ ticketId: z.number().int(), count: z.number().int() })),
});

/** Event topics of the inbox; every payload below has a schema. */
export const inboxTopics = {
  messageCreated: 'inbox.message_created',
  messageUpdated: 'inbox.message_updated',
  ticketCreated: 'inbox.ticket_created',
  ticketUpdated: 'inbox.ticket_updated',
  countsChanged: 'inbox.counts_changed',
  typing: 'inbox.typing',
  messageDeleted: 'inbox.message_deleted',
  /** No socket hears it: it hands an outbound message to the delivery job. */
  deliveryRequested: 'inbox.delivery_requested',
} as const;

export const messageEventPayload = z.object({ message: messageView, ticket: ticketSummary });
export const messageUpdatedPayload = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  status: z.enum(messageStatuses),
  failureReason: z.string().nullable(),
});
export const ticketEventPayload = z.object({
  ticket: ticketSummary,
  /** The assignee before the change, so their list can drop the row. */
  previousAssigneeId: z.string().uuid().nullable(),
});
/** Counts changed: the whole client's open and unassigned counts, and the assignees touched. */
export const countsChangedPayload = z.object({
  all: z.number().int(),
  unassigned: z.number().int(),
  assignees: z.record(z.string(), z.number().int()),
});
export const typingPayload = z.object({
  ticketId: z.number().int(),
  who: z.enum(['CUSTOMER', 'AGENT']),
  name: z.string(),
  typing: z.boolean(),
});

/** Inbox error texts (the spec's where it gives them). */
export const inboxErrors = {
  noChatData: 'No chat data found',
  emptyMessage: 'Message is empty',
  messageTooLong: 'Message is too long',
  ticketClosed: 'Chat is already closed',
  ticketExpired: 'Chat expired',
  attachmentType: 'Media type is not supported on this channel',
  attachmentSize: 'Media is too large for this channel',
  remarkRequired: 'Remark is required',
  cannotReply: 'You can not reply to this chat',
  downloadRange: 'chat history download up to 31 days',
  selectionLimit: 'Selection limit reached',
  onlyResolve: 'This chat is past 24 hours and can only be resolved',
  roomHasOpenChat: 'This customer already has an open chat',
  agentNotAssignable: 'This agent can not be assigned',
  groupNotFound: 'Group not found',
  categoryNotFound: 'Category not found',
  categoryExists: 'Category name already exists',
  managersOnly: 'Only supervisors and admins can do this',
  cannotDeleteMessage: 'Only your own internal notes and failed messages can be deleted',
  channelNotConnected: 'Channel is not connected',
  quotedNotFound: 'The quoted message is not in this chat',
  tooManyTags: 'A chat can have at most 20 tags',
} as const;

/*
 * Inbox core calls (core-inbox §7, customer-service platform): the chat room's actions,
 * messages, tickets, categories, configuration, and the transfer dialog's lists.
 */

const tagName = z.string().trim().min(1).max(inboxLimits.tagMax);

/** A new chat in a contact's existing room, taken by the caller (POST chatRoom, POST tickets). */
export const startTicketBody = z.object({
  roomId: z.string().uuid(),
  subject: z.string().trim().max(inboxLimits.subjectMax).nullable().optional(),
  priority: ticketPriority.optional(),
  categoryId: z.string().uuid().nullable().optional(),
  tags: z.array(tagName).max(inboxLimits.tagsPerTicket).optional(),
});
export type StartTicketBody = z.infer<typeof startTicketBody>;

/** The ticket closed or resolved, and the contact's other chats closed with it. */
export const changeStatusResponse = z.object({
  ticket: ticketSummary,
  closedTicketIds: z.array(z.number().int()),
});

export const ticketIdQuery = z.object({ ticketId: z.coerce.number().int().positive() });
export const ticketIdBody = z.object({ ticketId: z.number().int().positive() });
export const typingBody = z.object({ ticketId: z.number().int().positive(), typing: z.boolean() });

/** DELETE chatRoom: only a force close (managers) ends a chat without a remark. */
export const closeChatQuery = ticketIdQuery.extend({
  forceClose: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const contactHistoryQuery = z.object({ contactId: z.string().uuid() });
/** A contact's chats, newest first. */
export const ticketHistoryResponse = z.object({ content: z.array(ticketSummary) });

export const messageIdQuery = z.object({ id: z.coerce.number().int().positive() });

/** Tags in use in the client, most used first. */
export const tagListResponse = z.object({
  content: z.array(z.object({ name: z.string(), count: z.number().int() })),
});

/** A message removed from a chat (an internal note or a failed message). */
export const messageDeletedPayload = z.object({ id: z.number().int(), ticketId: z.number().int() });

/** Job data of the delivery job: which outbound message, and which attempt this is. */
export const deliveryRequestedPayload = z.object({
  messageId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  attempt: z.number().int().min(1).default(1),
});
