import { inboxTopics, type MessageView } from '@app/contracts';
import type { Executor } from '../../db/client';
import { appendEventAtCommit, type NewEvent, rooms } from '../../platform/events/outbox';
import { ticketEventRooms } from './inbox.policy';
import { type MessageRow, presentTicket, type TicketRow } from './ticket.presenter';
import { readCounters } from './ticket.repository';

/**
 * Which inbox events go to which sockets. Every function writes an outbox event in the
 * caller's transaction, with its commit (`appendEventAtCommit`), so sockets hear of a
 * change only once it has committed.
 */

export type Before = { status: TicketRow['status']; assigneeId: string | null } | null | undefined;

/** A public message also reaches the customer's widget; an internal note never does. */
function messageRooms(
  ticket: TicketRow,
  kind: MessageRow['kind'],
  contactIdentityId: string,
  before?: Before,
) {
  const list = ticketEventRooms(ticket.clientId, ticket, before);
  if (kind === 'PublicMessage') list.push(rooms.visitor(contactIdentityId));
  return list;
}

/** A ticket opened or changed: its rooms before and after hear it (`before` lets a list drop it). */
export function ticketEvent(topic: 'created' | 'updated', ticket: TicketRow, before?: Before): NewEvent {
  return {
    clientId: ticket.clientId,
    topic: topic === 'created' ? inboxTopics.ticketCreated : inboxTopics.ticketUpdated,
    rooms: ticketEventRooms(ticket.clientId, ticket, before),
    payload: { ticket: presentTicket(ticket), previousAssigneeId: before?.assigneeId ?? null },
  };
}

export async function emitTicketEvent(
  tx: Executor,
  topic: 'created' | 'updated',
  ticket: TicketRow,
  before?: Before,
): Promise<void> {
  await appendEventAtCommit(tx, ticketEvent(topic, ticket, before));
}

/**
 * The open-ticket counts after a change, read from the trigger's counters in the same
 * transaction. Every user of the client hears them: they are numbers, and each screen
 * picks its own tab's.
 */
export async function emitCountsChanged(
  tx: Executor,
  clientId: string,
  assigneeIds: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  const assignees = [...new Set(assigneeIds.filter((id): id is string => Boolean(id)))];
  const counters = await readCounters(tx, clientId, [
    'all',
    'unassigned',
    ...assignees.map((id) => `user:${id}`),
  ]);
  await appendEventAtCommit(tx, countsEvent(clientId, assignees, counters));
}

/** The counts event from counters already read (`all`, `unassigned`, `user:<id>`). */
export function countsEvent(
  clientId: string,
  assignees: ReadonlyArray<string>,
  counters: ReadonlyMap<string, number>,
): NewEvent {
  return {
    clientId,
    topic: inboxTopics.countsChanged,
    rooms: [rooms.client(clientId)],
    payload: {
      all: counters.get('all') ?? 0,
      unassigned: counters.get('unassigned') ?? 0,
      assignees: Object.fromEntries(assignees.map((id) => [id, counters.get(`user:${id}`) ?? 0])),
    },
  };
}

/** A new message, with its ticket as it now is, so a list can move the row in one step. */
export function messageCreatedEvent(
  message: MessageView,
  ticket: TicketRow,
  contactIdentityId: string,
  before?: Before,
): NewEvent {
  return {
    clientId: ticket.clientId,
    topic: inboxTopics.messageCreated,
    rooms: messageRooms(ticket, message.kind, contactIdentityId, before),
    payload: { message, ticket: presentTicket(ticket) },
  };
}

export async function emitMessageCreated(
  tx: Executor,
  message: MessageView,
  ticket: TicketRow,
  contactIdentityId: string,
  before?: Before,
): Promise<void> {
  await appendEventAtCommit(tx, messageCreatedEvent(message, ticket, contactIdentityId, before));
}

/** A message's delivery state moved (or it failed, with the reason). */
export async function emitMessageUpdated(
  tx: Executor,
  message: MessageRow,
  ticket: TicketRow,
  contactIdentityId: string,
): Promise<void> {
  await appendEventAtCommit(tx, {
    clientId: ticket.clientId,
    topic: inboxTopics.messageUpdated,
    rooms: messageRooms(ticket, message.kind, contactIdentityId),
    payload: {
      id: message.id,
      ticketId: message.ticketId,
      status: message.status,
      failureReason: message.failureReason,
    },
  });
}

/** A message was taken back: screens drop it. */
export async function emitMessageDeleted(
  tx: Executor,
  message: MessageRow,
  ticket: TicketRow,
  contactIdentityId: string,
): Promise<void> {
  await appendEventAtCommit(tx, {
    clientId: ticket.clientId,
    topic: inboxTopics.messageDeleted,
    rooms: messageRooms(ticket, message.kind, contactIdentityId),
    payload: { id: message.id, ticketId: message.ticketId },
  });
}

/** Hands an outbound public message to the delivery job; no socket is in its rooms. */
export async function requestDelivery(tx: Executor, message: MessageRow): Promise<void> {
  await appendEventAtCommit(tx, {
    clientId: message.clientId,
    topic: inboxTopics.deliveryRequested,
    rooms: [],
    payload: { messageId: message.id, ticketId: message.ticketId, attempt: 1 },
  });
}

/** Typing goes to whoever has the chat open: the ticket's room, and the customer's widget. */
export async function emitTyping(
  tx: Executor,
  ticket: TicketRow,
  typing: { who: 'CUSTOMER' | 'AGENT'; name: string; typing: boolean; contactIdentityId?: string },
): Promise<void> {
  const list = [rooms.ticket(ticket.id)];
  if (typing.contactIdentityId) list.push(rooms.visitor(typing.contactIdentityId));
  await appendEventAtCommit(tx, {
    clientId: ticket.clientId,
    topic: inboxTopics.typing,
    rooms: list,
    payload: { ticketId: ticket.id, who: typing.who, name: typing.name, typing: typing.typing },
  });
}
