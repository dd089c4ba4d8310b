import type { MessageView, TicketStatus, TicketSummary } from '@app/contracts';
import type { Database } from '../../db/client';
import { rowMapperOf } from '../../db/json-row';
import { channelAccounts, contacts, tickets } from '../../db/schema';
import { readInTenant } from '../../db/tenant';
import { readTogether } from '../../db/tenant-connections';
import type { AuthContext } from '../../platform/http/authentication';
import { badRequest, notFound } from '../../platform/http/http-errors';
import { JsonText } from '../../platform/http/presented-response';
import { findContact } from '../contacts/contact.repository';
import type { AttachmentStore } from './attachment-store';
import { currentTicketAccessOfRoomQuery, ticketDetailQueries } from './chat-room.repository';
import { canSeeTicket, type InboxScope, inboxScopeOf } from './inbox.policy';
import { jsonArrayOf, messageJsonOf } from './json-views';
import { findMessage, roomPageOf, roomPageQuery } from './message.repository';
import { messageView } from './message-view';
import { checkedNewestPageQuery, checkedPageOf, type KeyedRoomPage } from './room-page.repository';
import { RoomPageCache } from './room-page-cache';
import { presentTicket } from './ticket.presenter';
import {
  findTicket,
  listContactTickets,
  type TicketAccessRow,
  ticketAccessQuery,
  unreadOfAssignee,
} from './ticket.repository';
import { isOpen, visibleTicket } from './ticket-access';

/** How many of a contact's tickets the customer panel and the history call show. */
const historyLimit = 50;

/**
 * What the chat room screen reads: the ticket with its customer, the message pages, one
 * message, the unread counts, and whether a socket may join a ticket's room.
 */
export class ChatRoomService {
  constructor(
    private readonly db: Database,
    private readonly attachments: AttachmentStore,
    private readonly roomPages: RoomPageCache = new RoomPageCache(0),
  ) {}

  /** GET chatRoom/detail: the ticket, its contact, their other tickets and the channel account. */
  async detail(auth: AuthContext, ticketId: number): Promise<JsonText> {
    const scope = inboxScopeOf(auth);
    return readInTenant(this.db, auth.clientId, async (tx) => {
      // One message: every statement finds its row through the ticket, and nothing but the
      // 404 is answered unless the ticket may be seen.
      const [ticketRows, contactRows, accountRows, contactTicketRows] = await readTogether(
        tx,
        ticketDetailQueries(auth.clientId, ticketId, historyLimit + 1),
      );
      const ticket = ticketRows[0] ? rowMapperOf(tickets)(ticketRows[0]) : undefined;
      if (!ticket || !canSeeTicket(scope, ticket)) throw notFound();
      const contact = contactRows[0] ? rowMapperOf(contacts)(contactRows[0]) : undefined;
      if (!contact) throw notFound();
      const account = accountRows[0] ? rowMapperOf(channelAccounts)(accountRows[0]) : undefined;
      const others = contactTicketRows
        .map((row) => ({
          id: Number(row.id),
          status: row.status as TicketStatus,
          assigneeId: row.assignee_id as string | null,
          view: row.view as string,
        }))
        .filter((other) => other.id !== ticket.id && canSeeTicket(scope, other));
      // The other tickets come written as JSON by PostgreSQL; the rest is written here.
      const contactView = {
        contactId: contact.id,
        name: contact.name,
        phone: contact.phone,
        email: contact.email,
        avatarUrl: contact.avatarUrl,
        notes: contact.notes,
        createdAt: contact.createdAt.toISOString(),
      };
      const channel = { accountId: ticket.channelAccountId, name: account?.name ?? ticket.channel };
      return new JsonText(
        `{"ticket":${JSON.stringify(presentTicket(ticket))},"contact":${JSON.stringify(contactView)},` +
          `"earlierTickets":${jsonArrayOf(others.slice(0, historyLimit).map((other) => other.view))},` +
          `"otherActiveTicketIds":${JSON.stringify(others.filter(isOpen).map((other) => other.id))},` +
          `"channel":${JSON.stringify(channel)}}`,
      );
    });
  }

  /** GET tickets/{id}: one ticket the caller may see. */
  async ticket(auth: AuthContext, ticketId: number): Promise<TicketSummary> {
    const scope = inboxScopeOf(auth);
    const row = await readInTenant(this.db, auth.clientId, (tx) => visibleTicket(tx, scope, ticketId));
    return presentTicket(row);
  }

  /** GET chatRoom/history: a contact's tickets the caller may see, newest first. */
  async history(auth: AuthContext, contactId: string): Promise<{ content: TicketSummary[] }> {
    const scope = inboxScopeOf(auth);
    return readInTenant(this.db, auth.clientId, async (tx) => {
      if (!(await findContact(tx, auth.clientId, contactId))) throw notFound();
      const rows = await listContactTickets(tx, auth.clientId, contactId, historyLimit);
      return { content: rows.filter((row) => canSeeTicket(scope, row)).map((row) => presentTicket(row)) };
    });
  }

  /**
   * GET chat: a page of the room's messages, across its tickets, so an agent reads the
   * whole thread. The ticket (or the room's current ticket) must be visible to the caller.
   */
  async chatPage(
    auth: AuthContext,
    query: { ticketId?: number; roomId?: string; before?: number; after?: number; limit: number },
  ): Promise<JsonText> {
    const scope = inboxScopeOf(auth);
    if (query.ticketId === undefined && query.roomId === undefined)
      throw badRequest('ticketId or roomId is required');
    const of: { ticketId: number } | { roomId: string } =
      query.ticketId !== undefined ? { ticketId: query.ticketId } : { roomId: query.roomId! };
    // The newest page may be answered from the pages kept in memory, once the database says
    // it has not changed (room-page-cache.ts); the others are read as they are.
    const newest = query.before === undefined && query.after === undefined && this.roomPages.enabled;
    const key = newest ? RoomPageCache.keyOf(auth.clientId, of, query.limit) : '';
    const kept = newest ? this.roomPages.get(key) : undefined;
    return readInTenant(this.db, auth.clientId, async (tx) => {
      // The ticket and the page travel together; the page is dropped unless the ticket may be seen.
      const [ticketRows, pageRows] = await readTogether(tx, [
        'ticketId' in of
          ? ticketAccessQuery(auth.clientId, of.ticketId)
          : currentTicketAccessOfRoomQuery(auth.clientId, of.roomId),
        newest
          ? checkedNewestPageQuery(auth.clientId, of, query.limit, kept)
          : roomPageQuery(auth.clientId, of, query),
      ]);
      const ticket = ticketRows[0] as unknown as TicketAccessRow | undefined;
      if (!ticket || !canSeeTicket(scope, { status: ticket.status, assigneeId: ticket.assignee_id }))
        throw notFound();
      if (query.roomId && query.roomId !== ticket.room_id) throw notFound();
      const page = newest
        ? this.keptOrRead(key, checkedPageOf(pageRows, query.limit, kept))
        : roomPageOf(pageRows, query);
      const linkOf = (attachment: { id: string; url?: string }) =>
        this.attachments.linkOf(auth.clientId, attachment);
      const views = page.rows.map((row) => messageJsonOf(row, linkOf));
      return new JsonText(`{"messages":${jsonArrayOf(views)},"hasMore":${page.hasMore}}`);
    });
  }

  /** The page found; kept for next time unless it is the one kept already. */
  private keptOrRead(key: string, found: ReturnType<typeof checkedPageOf>): KeyedRoomPage {
    const { unchanged, ...page } = found;
    if (!unchanged) this.roomPages.keep(key, page);
    return page;
  }

  /** GET chat/id: one message of a chat the caller may see. */
  async message(auth: AuthContext, messageId: number): Promise<MessageView> {
    const scope = inboxScopeOf(auth);
    return readInTenant(this.db, auth.clientId, async (tx) => {
      const message = await findMessage(tx, auth.clientId, messageId);
      if (!message) throw notFound();
      await visibleTicket(tx, scope, message.ticketId);
      return messageView(tx, this.attachments, message);
    });
  }

  /** GET chatRoom/unread/count: unread customer messages of the caller's open chats. */
  async unreadCount(auth: AuthContext) {
    const tickets = await readInTenant(this.db, auth.clientId, (tx) =>
      unreadOfAssignee(tx, auth.clientId, auth.userId),
    );
    return { total: tickets.reduce((sum, ticket) => sum + ticket.count, 0), tickets };
  }

  /** The realtime hub's authorizer for `ticket:<id>` rooms. */
  async canJoinTicketRoom(auth: AuthContext, id: string): Promise<boolean> {
    if (!/^\d{1,15}$/.test(id) || !auth.ability.can('READ', 'CUSTOMER_SERVICE_INBOX')) return false;
    const scope: InboxScope = inboxScopeOf(auth);
    const ticket = await readInTenant(this.db, auth.clientId, (tx) =>
      findTicket(tx, auth.clientId, Number(id)),
    );
    return ticket !== undefined && canSeeTicket(scope, ticket);
  }
}
