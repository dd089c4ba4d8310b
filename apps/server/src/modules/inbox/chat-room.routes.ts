import {
  categoryBody,
  changeStatusBody,
  changeStatusResponse,
  closeChatQuery,
  contactHistoryQuery,
  errorObject,
  inboxErrors,
  inboxLimits,
  priorityBody,
  startTicketBody,
  ticketDetailResponse,
  ticketHistoryResponse,
  ticketIdBody,
  ticketIdQuery,
  ticketSummary,
  transferBody,
  typingBody,
  unreadCountResponse,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { badRequest } from '../../platform/http/http-errors';
import { presented } from '../../platform/http/presented-response';
import { callerOf, permission } from '../../platform/http/route-access';
import type { ChatRoomService } from './chat-room.service';
import type { OutboundMessageService } from './outbound-message.service';
import type { TicketService } from './ticket.service';

/** The error answers every inbox route may give, in the error object shape. */
export const inboxRouteErrors = {
  400: errorObject,
  401: errorObject,
  403: errorObject,
  404: errorObject,
  409: errorObject,
};
const security = [{ bearer: [] }];
const read = permission('CUSTOMER_SERVICE_INBOX');
const update = permission('CUSTOMER_SERVICE_INBOX', 'UPDATE');

/**
 * The remark is checked by the service, so that a missing one answers with the inbox's
 * own text ('Remark is required') rather than a schema message.
 */
const statusBody = changeStatusBody.extend({ remarks: z.string().max(inboxLimits.remarksMax).default('') });

/** The chat room's calls (core-inbox §7, customer-service platform `chatRoom/*`). */
export function registerChatRoomRoutes(
  app: App,
  services: { chatRooms: ChatRoomService; tickets: TicketService; outbound: OutboundMessageService },
): void {
  const { chatRooms, tickets, outbound } = services;
  const schema = <T extends object>(extra: T) => ({ tags: ['inbox'], security, ...extra });

  app.get(
    '/api/csp/chatRoom/detail',
    {
      schema: schema({
        querystring: ticketIdQuery,
        // Built field by field (presentTicket, the contact's fields named one by one).
        response: { 200: presented(ticketDetailResponse), ...inboxRouteErrors },
      }),
      config: { access: read },
    },
    async (request) => chatRooms.detail(callerOf(request), request.query.ticketId),
  );

  app.get(
    '/api/csp/chatRoom/history',
    {
      schema: schema({
        querystring: contactHistoryQuery,
        response: { 200: ticketHistoryResponse, ...inboxRouteErrors },
      }),
      config: { access: read },
    },
    async (request) => chatRooms.history(callerOf(request), request.query.contactId),
  );

  app.post(
    '/api/csp/chatRoom',
    {
      schema: schema({ body: startTicketBody, response: { 201: ticketSummary, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request, reply) => reply.code(201).send(await tickets.start(callerOf(request), request.body)),
  );

  app.post(
    '/api/csp/chatRoom/category',
    {
      schema: schema({ body: categoryBody, response: { 200: ticketSummary, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request) =>
      tickets.edit(callerOf(request), request.body.ticketId, { categoryId: request.body.categoryId }),
  );

  app.post(
    '/api/csp/chatRoom/priority',
    {
      schema: schema({ body: priorityBody, response: { 200: ticketSummary, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request) =>
      tickets.edit(callerOf(request), request.body.ticketId, { priority: request.body.priority }),
  );

  app.put(
    '/api/csp/chatRoom/status',
    {
      schema: schema({ body: statusBody, response: { 200: changeStatusResponse, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request) => tickets.changeStatus(callerOf(request), request.body),
  );

  app.post(
    '/api/csp/chatRoom/transfer',
    {
      schema: schema({ body: transferBody, response: { 200: ticketSummary, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request) => tickets.transfer(callerOf(request), request.body),
  );

  app.delete(
    '/api/csp/chatRoom',
    {
      schema: schema({ querystring: closeChatQuery, response: { 200: ticketSummary, ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request) => {
      // Closing needs a remark (chatRoom/status); only a manager's force close goes without.
      if (!request.query.forceClose) throw badRequest(inboxErrors.remarkRequired);
      return tickets.forceClose(callerOf(request), request.query.ticketId);
    },
  );

  app.get(
    '/api/csp/chatRoom/unread/count',
    {
      schema: schema({ response: { 200: unreadCountResponse, ...inboxRouteErrors } }),
      config: { access: read },
    },
    async (request) => chatRooms.unreadCount(callerOf(request)),
  );

  app.post(
    '/api/csp/chatRoom/read',
    {
      schema: schema({ body: ticketIdBody, response: { 200: ticketSummary, ...inboxRouteErrors } }),
      config: { access: read },
    },
    async (request) => tickets.markRead(callerOf(request), request.body.ticketId),
  );

  app.post(
    '/api/csp/chatRoom/typing',
    {
      schema: schema({ body: typingBody, response: { 204: z.null(), ...inboxRouteErrors } }),
      config: { access: update },
    },
    async (request, reply) => {
      await outbound.agentTyping(callerOf(request), request.body.ticketId, request.body.typing);
      return reply.code(204).send(null);
    },
  );
}
