import { type ChannelCode, channels, chatExpiryMs, type MessageStatus } from '@app/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import {
  agentGroupMembers,
  agentGroups,
  channelAccounts,
  chatRooms,
  contactIdentities,
  contacts,
  messages,
  ticketCategories,
  tickets,
  users,
} from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { type DemoAgent, type DemoConversation, demoConversations } from './demo-inbox-conversations';
import { previewOf } from './ticket.presenter';
import { settleMessageFloors } from './ticket-messages';

/** The demo's channel accounts; the live chat's name is the one the live-chat seed looks for. */
const demoAccounts: Array<{ channel: DemoConversation['channel']; name: string }> = [
  { channel: 'WAP', name: 'Toko Demo WA' },
  { channel: 'IGM', name: '@tokodemo' },
  { channel: 'MSG', name: 'Toko Demo' },
  { channel: 'TLG', name: '@TokoDemoBot' },
  { channel: 'TPD', name: 'Toko Demo Official' },
  { channel: 'SHP', name: 'tokodemo.id' },
  { channel: 'LVC', name: 'Live Chat Toko Demo' },
];

const demoCategories = ['Pertanyaan produk', 'Pengiriman', 'Pembayaran', 'Komplain'];
const minute = 60_000;
const jakartaOffsetMs = 7 * 60 * minute;

/**
 * Gives the demo workspace a living inbox: channel accounts, groups, categories, the
 * chat-service switches, and about 40 conversations in every state over today and the last
 * two weeks. Reference data is added when missing; the conversations only when the client
 * has no ticket yet, so a restart (or a visitor's chat) never doubles them. Open-ticket
 * counters come from the tickets trigger.
 */
export async function seedDemoInbox(db: Database, clientId: string, now = new Date()): Promise<void> {
  await withTenant(db, clientId, async (tx) => {
    const accounts = await ensureAccounts(tx, clientId, now);
    const agents = await demoAgents(tx, clientId);
    const groups = await ensureGroups(tx, clientId, agents);
    const categories = await ensureCategories(tx, clientId);

    const [anyTicket] = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(eq(tickets.clientId, clientId))
      .limit(1);
    if (anyTicket) return;
    await seedConversations(tx, clientId, { accounts, agents, groups, categories, now });
  });
}

async function ensureAccounts(tx: Transaction, clientId: string, now: Date) {
  // Deleted ones count too: an account the owner disconnected is not put back on a restart
  // (Telegram, say, is single-connection: it would stand beside the bot connected instead).
  const existing = await tx.select().from(channelAccounts).where(eq(channelAccounts.clientId, clientId));
  const byChannel = new Map<ChannelCode, { id: string; channel: ChannelCode }>();
  for (const wanted of demoAccounts) {
    let account = existing.find((row) => row.channel === wanted.channel && row.name === wanted.name);
    account ??= (
      await tx
        .insert(channelAccounts)
        .values({ clientId, ...wanted, status: 'CONNECTED', connectedAt: now })
        .returning()
    )[0];
    byChannel.set(wanted.channel, account);
  }
  return byChannel;
}

type DemoAgents = Record<DemoAgent, { id: string; name: string }>;

async function demoAgents(tx: Transaction, clientId: string): Promise<DemoAgents> {
  const rows = await tx
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.clientId, clientId));
  const agentOf = (email: string) => rows.find((row) => row.email === email) ?? rows[0];
  return {
    owner: agentOf('owner@demo.test'),
    supervisor: agentOf('supervisor@demo.test'),
    agent1: agentOf('agent1@demo.test'),
    agent2: agentOf('agent2@demo.test'),
  };
}

async function ensureGroups(tx: Transaction, clientId: string, agents: DemoAgents) {
  const wanted = [
    {
      name: 'Penjualan',
      description: 'Pertanyaan produk dan pesanan',
      isDefault: 1,
      members: [agents.agent1.id, agents.agent2.id],
    },
    {
      name: 'Komplain',
      description: 'Retur, barang rusak, dan keluhan',
      isDefault: 0,
      members: [agents.supervisor.id],
    },
  ];
  const existing = await tx
    .select()
    .from(agentGroups)
    .where(and(eq(agentGroups.clientId, clientId), isNull(agentGroups.deletedAt)));
  const ids = new Map<string, string>();
  for (const group of wanted) {
    const found = existing.find((row) => row.name === group.name);
    if (found) {
      ids.set(group.name, found.id);
      continue;
    }
    const [row] = await tx
      .insert(agentGroups)
      .values({ clientId, name: group.name, description: group.description, isDefault: group.isDefault })
      .returning();
    await tx
      .insert(agentGroupMembers)
      .values(group.members.map((userId) => ({ clientId, groupId: row.id, userId })))
      .onConflictDoNothing();
    ids.set(group.name, row.id);
  }
  return ids;
}

async function ensureCategories(tx: Transaction, clientId: string) {
  await tx
    .insert(ticketCategories)
    .values(demoCategories.map((name) => ({ clientId, name })))
    .onConflictDoNothing();
  const rows = await tx
    .select({ id: ticketCategories.id, name: ticketCategories.name })
    .from(ticketCategories)
    .where(and(eq(ticketCategories.clientId, clientId), isNull(ticketCategories.deletedAt)));
  return new Map(rows.map((row) => [row.name, row.id]));
}

/**
 * The start of the demo's "today" (ms): the later of midnight in Jakarta and midnight in UTC,
 * so that a chat placed after it is today in both zones (the ticket list opens on today).
 */
export function demoTodayStart(now: Date): number {
  const jakartaMidnight =
    Math.floor((now.getTime() + jakartaOffsetMs) / 86_400_000) * 86_400_000 - jakartaOffsetMs;
  const utcMidnight = Math.floor(now.getTime() / 86_400_000) * 86_400_000;
  return Math.max(jakartaMidnight, utcMidnight);
}

/**
 * When each line was sent: from the conversation's start, a few minutes apart, squeezed so
 * that the last line is still in the past (a conversation of today may start just now).
 */
function lineTimes(conversation: DemoConversation, now: Date): Date[] {
  const gaps = conversation.lines.map(
    ([, , extra], index) => (index === 0 ? 0 : (extra?.gapMinutes ?? 2 + ((index * 7) % 5))) * minute,
  );
  const duration = gaps.reduce((sum, gap) => sum + gap, 0);
  const latest = now.getTime() - minute;
  let start: number;
  if ('today' in conversation.start) {
    const midnight = demoTodayStart(now);
    start = midnight + (latest - midnight) * conversation.start.today * 0.95;
  } else {
    const day = Math.floor((now.getTime() + jakartaOffsetMs) / 86_400_000) - conversation.start.daysAgo;
    start = day * 86_400_000 - jakartaOffsetMs + conversation.start.hour * 60 * minute;
  }
  const scale = duration > 0 && start + duration > latest ? Math.max(0, latest - start) / duration : 1;
  let at = start;
  return gaps.map((gap) => {
    at += gap * scale;
    return new Date(Math.round(at));
  });
}

interface SeedContext {
  accounts: Map<ChannelCode, { id: string; channel: ChannelCode }>;
  agents: DemoAgents;
  groups: Map<string, string>;
  categories: Map<string, string>;
  now: Date;
}

/**
 * Writes every conversation with a handful of batched inserts (contacts, identities,
 * rooms, tickets, messages): each test server seeds the demo, so this must stay quick.
 * Postgres returns the rows of one INSERT in the order of its VALUES, which ties the
 * returned ids back to the conversations.
 */
async function seedConversations(tx: Transaction, clientId: string, context: SeedContext): Promise<void> {
  const roomKey = (conversation: DemoConversation) => `${conversation.channel}:${conversation.customer.key}`;
  const firsts = [...new Map(demoConversations.map((each) => [roomKey(each), each])).values()];
  const contactRows = await tx
    .insert(contacts)
    .values(
      firsts.map(({ customer }) => ({
        clientId,
        name: customer.name,
        phone: customer.phone ?? null,
        email: customer.email ?? null,
      })),
    )
    .returning({ id: contacts.id });
  const identityRows = await tx
    .insert(contactIdentities)
    .values(
      firsts.map(({ channel, customer }, index) => ({
        clientId,
        contactId: contactRows[index].id,
        channelAccountId: context.accounts.get(channel)!.id,
        externalId: customer.phone?.replace('+', '') ?? `demo-${channel.toLowerCase()}-${customer.key}`,
      })),
    )
    .returning({ id: contactIdentities.id });
  const roomRows = await tx
    .insert(chatRooms)
    .values(
      firsts.map(({ channel, customer }, index) => ({
        clientId,
        channelAccountId: context.accounts.get(channel)!.id,
        channel,
        contactId: contactRows[index].id,
        contactIdentityId: identityRows[index].id,
        name: customer.name,
        customerPhoneNumber: customer.phone ?? null,
      })),
    )
    .returning({ id: chatRooms.id });
  const rooms = new Map(
    firsts.map((first, index) => [
      roomKey(first),
      { roomId: roomRows[index].id, contactId: contactRows[index].id, identityId: identityRows[index].id },
    ]),
  );

  const plans = demoConversations.map((conversation) =>
    planOf(clientId, conversation, rooms.get(roomKey(conversation))!, context),
  );
  const ticketRows = await tx
    .insert(tickets)
    .values(plans.map((plan) => plan.ticket))
    .returning({ id: tickets.id });
  const messageRows = await tx
    .insert(messages)
    .values(
      plans.flatMap((plan, index) =>
        plan.messages.map((row) => ({ ...row, ticketId: ticketRows[index].id })),
      ),
    )
    .returning({ id: messages.id });

  // The tickets were all made before their messages: their floors are set after them.
  await settleMessageFloors(tx, clientId);
  let offset = 0;
  for (const plan of plans) {
    for (const [index, [, , extra]] of plan.conversation.lines.entries()) {
      if (extra?.quote === undefined) continue;
      await tx
        .update(messages)
        .set({ quotedMessageId: messageRows[offset + extra.quote].id })
        .where(and(eq(messages.clientId, clientId), eq(messages.id, messageRows[offset + index].id)));
    }
    offset += plan.messages.length;
  }
  // Each room points at its newest ticket.
  await tx.execute(sql`
    update chat_rooms set current_ticket_id = newest.id, last_message_at = newest.last_message_at
    from (select distinct on (room_id) id, room_id, last_message_at from tickets
          where client_id = ${clientId} order by room_id, id desc) newest
    where chat_rooms.id = newest.room_id and chat_rooms.client_id = ${clientId}`);
}

/** The ticket row and message rows of one conversation, with times, counters and expiry. */
function planOf(
  clientId: string,
  conversation: DemoConversation,
  room: { roomId: string; contactId: string; identityId: string },
  context: SeedContext,
) {
  const { customer, lines } = conversation;
  const account = context.accounts.get(conversation.channel)!;
  const times = lineTimes(conversation, context.now);
  const agent = context.agents[conversation.assignee ?? 'owner'];
  const open = conversation.status === 'UNASSIGNED' || conversation.status === 'ASSIGNED';
  const lastCustomerAt = times.filter((_, index) => lines[index][0] === 'c').at(-1) ?? null;
  const lastPublic = lines.findLastIndex(([who]) => who !== 'n');
  const lastAgentReply = lines.findLastIndex(([who, , extra]) => who === 'a' && !extra?.failed);
  const closedAt = open
    ? null
    : new Date(Math.min(times.at(-1)!.getTime() + 10 * minute, context.now.getTime()));
  const readReceipts = ['WAP', 'IGM', 'MSG', 'LVC'].includes(account.channel);

  const ticket = {
    clientId,
    roomId: room.roomId,
    contactId: room.contactId,
    channelAccountId: account.id,
    channel: account.channel,
    status: conversation.status,
    priority: conversation.priority ?? 3,
    categoryId: conversation.category ? (context.categories.get(conversation.category) ?? null) : null,
    tags: conversation.tags ?? [],
    remarks: conversation.remarks ?? null,
    subject: conversation.subject ?? null,
    groupId: conversation.group ? (context.groups.get(conversation.group) ?? null) : null,
    assigneeId: conversation.assignee ? agent.id : null,
    closedBy: open ? null : agent.id,
    closedAt,
    customerName: customer.name,
    customerPhone: customer.phone ?? null,
    customerEmail: customer.email ?? null,
    lastMessageAt: times[lastPublic],
    lastMessagePreview: previewOf(lines[lastPublic][1], []),
    lastCustomerMessageAt: lastCustomerAt,
    expiresAt:
      channels[account.channel].hasExpiryDate && lastCustomerAt
        ? new Date(lastCustomerAt.getTime() + chatExpiryMs)
        : null,
    unreadCount: open ? lines.filter(([who], index) => who === 'c' && index > lastAgentReply).length : 0,
    createdAt: times[0],
    updatedAt: closedAt ?? times.at(-1)!,
  };
  const messageRows = lines.map(([who, text, extra], index) => {
    const fromCustomer = who === 'c';
    const old = context.now.getTime() - times[index].getTime() > 30 * minute;
    const agentStatus: MessageStatus = old && readReceipts ? 'READ' : 'SENT';
    const status: MessageStatus = fromCustomer
      ? 'DELIVERED'
      : extra?.failed
        ? 'FAILED'
        : who === 'n'
          ? 'SENT'
          : agentStatus;
    return {
      clientId,
      roomId: room.roomId,
      channelAccountId: account.id,
      kind: who === 'n' ? ('InternalMessage' as const) : ('PublicMessage' as const),
      direction: fromCustomer ? ('INBOUND' as const) : ('OUTBOUND' as const),
      senderType: fromCustomer ? ('CUSTOMER' as const) : ('AGENT' as const),
      senderId: fromCustomer ? room.identityId : agent.id,
      senderName: fromCustomer ? customer.name : agent.name,
      senderRef: fromCustomer ? `identity:${room.identityId}` : `user:${agent.id}`,
      text,
      status,
      failureReason: extra?.failed ?? null,
      createdAt: times[index],
      updatedAt: times[index],
    };
  });
  return { conversation, ticket, messages: messageRows };
}
