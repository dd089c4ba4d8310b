import type { Role } from '@app/contracts';
import type { Database } from '../db/client';
import { clients, users } from '../db/schema';
import { hashPassword } from '../modules/identity/password-hasher';

let sequence = 0;

/** A new client with one user of the role; the password is Demo1234! unless given. */
export async function createClientWithUser(
  db: Database,
  options: { role?: Role; password?: string; country?: string } = {},
): Promise<{ clientId: string; userId: string; email: string }> {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}`;
  const [client] = await db
    .insert(clients)
    .values({ slug: `client-${tag}`, name: `Client ${tag}`, country: options.country ?? 'ID' })
    .returning();
  const email = `user-${tag}@other.test`;
  const [user] = await db
    .insert(users)
    .values({
      clientId: client.id,
      email,
      name: `User ${tag}`,
      role: options.role ?? 'OWN',
      passwordHash: await hashPassword(options.password ?? 'Demo1234!'),
    })
    .returning();
  return { clientId: client.id, userId: user.id, email };
}
