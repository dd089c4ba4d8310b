import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  channelAccounts,
  chatRooms,
  contactIdentities,
  livechatWidgets,
  messages,
  tickets,
  users,
} from '../../db/schema';

export type WidgetRow = typeof livechatWidgets.$inferSelect;
export type VisitorMessageRow = typeof messages.$inferSelect;

/** Where a visitor's conversation lives once their first message made it. */
export interface VisitorRoom {
  contactIdentityId: string;
  roomId: string;
}

/**
 * The live widget with this id, of any client: a visitor's page knows only the widget id,
 * so this one read happens before the tenant is known (like sign-in). A widget whose
 * channel account was removed is gone too.
 */
export async function findLiveWidget(db: Executor, widgetId: string): Promise<WidgetRow | undefined> {
  const [row] = await db
    .select({ widget: livechatWidgets })
    .from(livechatWidgets)
    .innerJoin(channelAccounts, eq(channelAccounts.id, livechatWidgets.channelAccountId))
    .where(
      and(
        eq(livechatWidgets.id, widgetId),
        isNull(livechatWidgets.deletedAt),
        isNull(channelAccounts.deletedAt),
        eq(channelAccounts.channel, 'LVC'),
      ),
    );
  return row?.widget;
}

/** Whether any active user of the client has set themselves online. */
export async function anyAgentOnline(db: Executor, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.status, 'ACTIVE'), eq(users.agentStatus, 'ONLINE')))
    .limit(1);
  return Boolean(row);
}

/** A user's display name, for the "agent joined" line the visitor sees. */
export async function findUserName(db: Executor, clientId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.id, userId)));
  return row?.name ?? null;
}

/** The visitor's identity and room, or null before their first message. */
export async function findVisitorRoom(
  db: Executor,
  clientId: string,
  channelAccountId: string,
  visitorId: string,
): Promise<VisitorRoom | null> {
  const [row] = await db
    .select({ contactIdentityId: contactIdentities.id, roomId: chatRooms.id })
    .from(contactIdentities)
    .innerJoin(chatRooms, eq(chatRooms.contactIdentityId, contactIdentities.id))
    .where(
      and(
        eq(contactIdentities.clientId, clientId),
        eq(contactIdentities.channelAccountId, channelAccountId),
        eq(contactIdentities.externalId, visitorId),
      ),
    );
  return row ?? null;
}

/**
 * Public messages of the room, oldest first: those after `after` (a resume), or the newest
 * `limit` when there is no `after` (a page opened afresh). Internal notes never leave.
 */
export async function listPublicMessages(
  db: Executor,
  clientId: string,
  roomId: string,
  page: { after: number | null; limit: number },
): Promise<VisitorMessageRow[]> {
  const scope = and(
    eq(messages.clientId, clientId),
    eq(messages.roomId, roomId),
    eq(messages.kind, 'PublicMessage'),
  );
  if (page.after !== null) {
    return db
      .select()
      .from(messages)
      .where(and(scope, gt(messages.id, page.after)))
      .orderBy(asc(messages.id))
      .limit(page.limit);
  }
  const newest = await db.select().from(messages).where(scope).orderBy(desc(messages.id)).limit(page.limit);
  return newest.reverse();
}

/**
 * The newest of the visitor's messages the agents have read: all of them but the current
 * ticket's unread ones (the inbox counts unread messages rather than marking each). 0 when none.
 */
export async function visitorReadUpTo(db: Executor, clientId: string, roomId: string): Promise<number> {
  const [current] = await db
    .select({ unread: tickets.unreadCount })
    .from(chatRooms)
    .innerJoin(
      tickets,
      and(eq(tickets.clientId, chatRooms.clientId), eq(tickets.id, chatRooms.currentTicketId)),
    )
    .where(and(eq(chatRooms.clientId, clientId), eq(chatRooms.id, roomId)));
  const unread = current?.unread ?? 0;
  const newest = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.clientId, clientId),
        eq(messages.roomId, roomId),
        eq(messages.kind, 'PublicMessage'),
        eq(messages.direction, 'INBOUND'),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(unread + 1);
  return newest[unread]?.id ?? 0;
}
