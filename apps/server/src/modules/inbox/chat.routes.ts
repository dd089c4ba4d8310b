import {
  chatPageQuery,
  chatPageResponse,
  messageIdQuery,
  messageView,
  sendMessageBody,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { presented } from '../../platform/http/presented-response';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxRouteErrors } from './chat-room.routes';
import type { ChatRoomService } from './chat-room.service';
import type { OutboundMessageService } from './outbound-message.service';

const security = [{ bearer: [] }];

/**
 * The text's length is checked by the service, so that an oversized message answers with
 * the inbox's own text ('Message is too long') rather than a schema message.
 */
const sendBody = sendMessageBody.extend({ text: z.string().default('') });

/** Messages (core-inbox §7): pages of a chat, one message, send, and take back. */
export function registerChatRoutes(
  app: App,
  services: { chatRooms: ChatRoomService; outbound: OutboundMessageService },
): void {
  const { chatRooms, outbound } = services;

  app.get(
    '/api/csp/chat',
    {
      schema: {
        tags: ['inbox'],
        security,
        querystring: chatPageQuery,
        response: { 200: presented(chatPageResponse), ...inboxRouteErrors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => chatRooms.chatPage(callerOf(request), request.query),
  );

  app.get(
    '/api/csp/chat/id',
    {
      schema: {
        tags: ['inbox'],
        security,
        querystring: messageIdQuery,
        response: { 200: messageView, ...inboxRouteErrors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => chatRooms.message(callerOf(request), request.query.id),
  );

  app.post(
    '/api/csp/chat/secure',
    {
      schema: {
        tags: ['inbox'],
        security,
        body: sendBody,
        response: { 200: messageView, 201: messageView, ...inboxRouteErrors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX', 'UPDATE') },
    },
    async (request, reply) => {
      const { message, created } = await outbound.send(callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send(message);
    },
  );

  app.delete(
    '/api/csp/chat/secure',
    {
      schema: {
        tags: ['inbox'],
        security,
        querystring: messageIdQuery,
        response: { 204: z.null(), ...inboxRouteErrors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX', 'UPDATE') },
    },
    async (request, reply) => {
      await outbound.delete(callerOf(request), request.query.id);
      return reply.code(204).send(null);
    },
  );
}
