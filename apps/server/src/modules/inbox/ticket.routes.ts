import { startTicketBody, tagListResponse, ticketSummary, updateTicketBody } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxRouteErrors } from './chat-room.routes';
import type { ChatRoomService } from './chat-room.service';
import type { InboxSettingsService } from './inbox-settings.service';
import type { TicketService } from './ticket.service';

const security = [{ bearer: [] }];
const read = permission('CUSTOMER_SERVICE_INBOX');
const update = permission('CUSTOMER_SERVICE_INBOX', 'UPDATE');

/** The ticket service's calls (core-inbox §7): one ticket, create, edit, and the tags in use. */
export function registerTicketRoutes(
  app: App,
  services: { tickets: TicketService; chatRooms: ChatRoomService; settings: InboxSettingsService },
): void {
  const { tickets, chatRooms, settings } = services;

  app.get(
    '/api/csp/tickets/:id',
    {
      schema: {
        tags: ['inbox'],
        security,
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: ticketSummary, ...inboxRouteErrors },
      },
      config: { access: read },
    },
    async (request) => chatRooms.ticket(callerOf(request), request.params.id),
  );

  app.post(
    '/api/csp/tickets',
    {
      schema: {
        tags: ['inbox'],
        security,
        body: startTicketBody,
        response: { 201: ticketSummary, ...inboxRouteErrors },
      },
      config: { access: update },
    },
    async (request, reply) => reply.code(201).send(await tickets.start(callerOf(request), request.body)),
  );

  // PUT tickets sets what it is given; PUT tickets/update is the same call, kept for the
  // spec's name, where the screens send tags to add and remove.
  for (const url of ['/api/csp/tickets', '/api/csp/tickets/update']) {
    app.put(
      url,
      {
        schema: {
          tags: ['inbox'],
          security,
          body: updateTicketBody,
          response: { 200: ticketSummary, ...inboxRouteErrors },
        },
        config: { access: update },
      },
      async (request) => {
        const { ticketId, ...edit } = request.body;
        return tickets.edit(callerOf(request), ticketId, edit);
      },
    );
  }

  app.get(
    '/api/csp/tags',
    {
      schema: { tags: ['inbox'], security, response: { 200: tagListResponse, ...inboxRouteErrors } },
      config: { access: read },
    },
    async (request) => settings.tags(callerOf(request)),
  );
}
