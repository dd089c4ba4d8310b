import { bitString, type CsPosition, type FeaturePermission, type Role } from '@app/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { clients, featureAccessGroups, users } from '../../db/schema';
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
  return { clientId: client.id, created };
}
