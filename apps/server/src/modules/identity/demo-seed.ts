import { bitString, type CsPosition, type FeaturePermission, type Role } from '@app/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  channelAccounts,
  chatRooms,
  clients,
  contactIdentities,
  contacts,
  featureAccessGroups,
  messages,
  tickets,
  users,
} from '../../db/schema';
import { demoTodayStart } from '../inbox/demo-inbox-seed';
import { hashPassword } from './password-hasher';

export const demoPassword = 'Demo1234!';

export const demoUsers: ReadonlyArray<{
  email: string;
  name: string;
  role: Role;
  featuresAccessName?: string;
  permissionIndex?: string;
  csPosition?: CsPosition;
  featuresPermissions?: FeaturePermission[];
}> = [
  { email: 'owner@demo.test', name: 'Olivia Pemilik', role: 'OWN' },
  { email: 'admin@demo.test', name: 'Adi Admin', role: 'ADC' },
  {
    // A supervisor is an agent whose feature-access group adds settings and performance.
    email: 'supervisor@demo.test',
    name: 'Sari Supervisor',
    role: 'USC',
    featuresAccessName: 'Supervisor',
    permissionIndex: bitString([0, 1, 2, 9, 10]),
    csPosition: 'SUPERVISOR_2',
    // Supervisors work from the ticket table, which VIEW_FEATURE opens.
    featuresPermissions: [{ name: 'VIEW_FEATURE', actions: ['READ'] }],
  },
  { email: 'agent1@demo.test', name: 'Agus Agen', role: 'USC', csPosition: 'CS_2' },
  { email: 'agent2@demo.test', name: 'Bunga Agen', role: 'USC', csPosition: 'CS_2' },
];

/** The demo client's switches: every feature-access bit, advanced search (29) included. */
const demoClientPermissionIndex = bitString([0, 1, 2, 9, 10, 14, 15, 16, 29]);

/**
 * Creates the "Toko Demo" workspace when it is missing. Idempotent: existing rows, and
 * passwords users have since changed, are left as they are.
 */
export async function seedDemoWorkspace(db: Database): Promise<{ clientId: string; created: number }> {
  await db
    .insert(clients)
    .values({
      slug: 'toko-demo',
      name: 'Toko Demo',
      country: 'ID',
      timezone: 'Asia/Jakarta',
      sellerId: 'DEMO-001',
      permissionIndex: demoClientPermissionIndex,
      features: ['INBOX', 'BROADCAST', 'TEMPLATE', 'CONTACT', 'PRODUCT'],
    })
    .onConflictDoNothing({ target: clients.slug });
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.slug, 'toko-demo'));
  // The supervisor's feature-access group exists as a role the admin screen can edit.
  const supervisor = demoUsers.find((user) => user.featuresAccessName === 'Supervisor');
  await db
    .insert(featureAccessGroups)
    .values({
      clientId: client.id,
      name: 'Supervisor',
      permissionIndex: supervisor?.permissionIndex ?? '',
      featuresPermissions: supervisor?.featuresPermissions ?? [],
    })
    .onConflictDoNothing();
  const existing = new Set(
    (await db.select({ email: users.email }).from(users).where(eq(users.clientId, client.id))).map((row) =>
      row.email.toLowerCase(),
    ),
  );
  const missing = demoUsers.filter((user) => !existing.has(user.email));
  // A restart finds every demo user in place and skips the argon2 hash altogether.
  if (missing.length === 0) return { clientId: client.id, created: 0 };
  const passwordHash = await hashPassword(demoPassword);
  const now = new Date();
  const rows = await db
    .insert(users)
    .values(
      missing.map((user) => ({
        clientId: client.id,
        email: user.email,
        name: user.name,
        role: user.role,
        passwordHash,
        featuresAccessName: user.featuresAccessName ?? null,
        permissionIndex: user.permissionIndex ?? null,
        csPosition: user.csPosition ?? null,
        featuresPermissions: user.featuresPermissions ?? [],
        // The demo staff have read and agreed to the consent, so it does not cover the demo.
        consentAgreedAt: now,
        consentTimestamp: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id });
  const created = rows.length;
  await seedDemoBranch(db, client.id);
  return { clientId: client.id, created };
}

/** The demo's second client: two demo people belong to it too, so client switching can be tried. */
export const demoBranch = {
  slug: 'demo-bandung',
  name: 'Toko Demo Cabang Bandung',
  members: [
    { email: 'owner@demo.test', role: 'OWN', csPosition: null },
    { email: 'agent1@demo.test', role: 'USC', csPosition: 'CS_1' },
  ],
  /** Customers whose live chats wait in the branch's inbox (and nowhere else). */
  customers: [
    { name: 'Rina Bandung', text: 'Halo, apakah toko Bandung buka hari Minggu?', assignAgent: false },
    { name: 'Dedi Bandung', text: 'Pesanan saya belum sampai di Dago, mohon dicek.', assignAgent: true },
  ],
} as const;

/**
 * Creates the branch, membership rows for its demo people (pointing to their Toko Demo
 * rows, which hold the credentials) and a couple of live chats. Idempotent like the rest:
 * members are added when missing, chats only when the branch has no ticket yet.
 */
async function seedDemoBranch(db: Database, homeClientId: string): Promise<void> {
  await db
    .insert(clients)
    .values({
      slug: demoBranch.slug,
      name: demoBranch.name,
      sellerId: 'DEMO-002',
      permissionIndex: demoClientPermissionIndex,
      features: ['INBOX', 'BROADCAST', 'TEMPLATE', 'CONTACT', 'PRODUCT'],
    })
    .onConflictDoNothing({ target: clients.slug });
  const [branch] = await db.select({ id: clients.id }).from(clients).where(eq(clients.slug, demoBranch.slug));
  const holders = await db
    .select()
    .from(users)
    .where(and(eq(users.clientId, homeClientId), isNull(users.sharedLoginUserId), isNull(users.deletedAt)));
  const present = new Set(
    (await db.select({ email: users.email }).from(users).where(eq(users.clientId, branch.id))).map((row) =>
      row.email.toLowerCase(),
    ),
  );
  const now = new Date();
  const missing = demoBranch.members.flatMap((member) => {
    const holder = holders.find((row) => row.email.toLowerCase() === member.email);
    if (!holder || present.has(member.email)) return [];
    return [
      {
        clientId: branch.id,
        email: holder.email,
        name: holder.name,
        role: member.role,
        csPosition: member.csPosition,
        passwordHash: '!',
        sharedLoginUserId: holder.id,
        consentAgreedAt: now,
        consentTimestamp: now,
      },
    ];
  });
  if (missing.length > 0) await db.insert(users).values(missing).onConflictDoNothing();
  await seedDemoBranchChats(db, branch.id, now);
}

/** Two live chats of the branch, one waiting and one with the branch's agent. */
async function seedDemoBranchChats(db: Database, clientId: string, now: Date): Promise<void> {
  const [anyTicket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.clientId, clientId));
  if (anyTicket) return;
  const [agent] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.email, 'agent1@demo.test')));
  const [account] = await db
    .insert(channelAccounts)
    .values({
      clientId,
      channel: 'LVC',
      name: 'Live Chat Cabang Bandung',
      status: 'CONNECTED',
      connectedAt: now,
    })
    .returning();
  // Today's chats, 20 minutes apart, but never before the demo's midnight: the ticket list
  // opens on today, and a demo started just after midnight must still show them.
  const midnight = demoTodayStart(now);
  const count = demoBranch.customers.length;
  for (const [index, customer] of demoBranch.customers.entries()) {
    const sooner = now.getTime() - (index + 1) * 20 * 60_000;
    const at = new Date(
      sooner >= midnight ? sooner : midnight + ((now.getTime() - midnight) * (count - index)) / (count + 1),
    );
    const [contact] = await db.insert(contacts).values({ clientId, name: customer.name }).returning();
    const [identity] = await db
      .insert(contactIdentities)
      .values({
        clientId,
        contactId: contact.id,
        channelAccountId: account.id,
        externalId: `demo-bdg-${index}`,
      })
      .returning();
    const [room] = await db
      .insert(chatRooms)
      .values({
        clientId,
        channelAccountId: account.id,
        channel: 'LVC',
        contactId: contact.id,
        contactIdentityId: identity.id,
        name: customer.name,
        lastMessageAt: at,
      })
      .returning();
    const assigned = customer.assignAgent && agent;
    const [ticket] = await db
      .insert(tickets)
      .values({
        clientId,
        roomId: room.id,
        contactId: contact.id,
        channelAccountId: account.id,
        channel: 'LVC',
        status: assigned ? 'ASSIGNED' : 'UNASSIGNED',
        assigneeId: assigned ? agent.id : null,
        customerName: customer.name,
        lastMessageAt: at,
        lastMessagePreview: customer.text,
        lastCustomerMessageAt: at,
        unreadCount: 1,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: tickets.id });
    await db.insert(messages).values({
      clientId,
      roomId: room.id,
      ticketId: ticket.id,
      channelAccountId: account.id,
      kind: 'PublicMessage',
      direction: 'INBOUND',
      senderType: 'CUSTOMER',
      senderId: identity.id,
      senderName: customer.name,
      senderRef: `identity:${identity.id}`,
      text: customer.text,
      status: 'DELIVERED',
      createdAt: at,
      updatedAt: at,
    });
    await db
      .update(chatRooms)
      .set({ currentTicketId: ticket.id })
      .where(sql`${chatRooms.id} = ${room.id} and ${chatRooms.clientId} = ${clientId}`);
  }
}
