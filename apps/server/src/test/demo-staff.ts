import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../db/schema';
import { startTestServer, type TestServer } from './test-server';

/** Demo staff by the name before `@demo.test`: each one's user id and a fresh access token. */
export interface DemoStaff {
  userIds: Record<string, string>;
  tokens: Record<string, string>;
}

/**
 * Signs the demo workspace's staff in (`owner`, `agent1`, `supervisor`…) and looks up their
 * own user rows: a shared login's rows beside them carry the same address.
 */
export async function signInDemoStaff(server: TestServer, names: readonly string[]): Promise<DemoStaff> {
  const staff: DemoStaff = { userIds: {}, tokens: {} };
  for (const name of names) {
    const email = `${name}@demo.test`;
    const [row] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNull(users.sharedLoginUserId)));
    staff.userIds[name] = row.id;
    staff.tokens[name] = (await server.login(email)).accessToken;
  }
  return staff;
}

/** A test server with the demo workspace, its client, and its staff signed in. */
export interface DemoServer extends DemoStaff {
  server: TestServer;
  clientId: string;
}

/** Starts the product on a database of its own, with the demo workspace, and signs the staff in. */
export async function startDemoServer(names: readonly string[]): Promise<DemoServer> {
  const server = await startTestServer();
  return { server, clientId: server.demoClientId!, ...(await signInDemoStaff(server, names)) };
}
