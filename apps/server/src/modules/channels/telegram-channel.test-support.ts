import type { ChannelAccountView } from '@app/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { messages, tickets } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import { TelegramSimulator } from './adapters/tlg/telegram.simulator';
import { telegramSecretHeader } from './adapters/tlg/telegram-protocol';

/** The product beside a Telegram simulator, with what the channel's tests read and do. */
export interface TelegramKit {
  server: TestServer;
  telegram: TelegramSimulator;
  /** A new client with one user of that role, signed in. */
  signedIn(role?: 'OWN' | 'USC'): Promise<{ clientId: string; token: string }>;
  /** Connects a bot by its token, as an owner does in the Channel tab. */
  connect(
    token: string,
    botToken: string,
  ): Promise<{ status: number; body: ChannelAccountView & { message?: string } }>;
  /** POSTs an update to a webhook as Telegram does, with the secret header when given. */
  postUpdate(url: string, update: unknown, secret?: string | null): Promise<Response>;
  /** The client's customers' messages with their tickets, oldest first. */
  messagesOf(
    clientId: string,
  ): Promise<
    Array<{ ticketId: number; customer: string; text: string | null; message: typeof messages.$inferSelect }>
  >;
  /** The client's journal entries (as the owner role, so row-level security does not hide them). */
  journalOf(clientId: string): Promise<Array<{ id: string; attempts: number; last_error: string | null }>>;
  close(): Promise<void>;
}

export async function startTelegramKit(): Promise<TelegramKit> {
  const telegram = await TelegramSimulator.start();
  const server = await startTestServer({ env: { TELEGRAM_API_BASE: telegram.url, SEED_DEMO: 'false' } });
  return {
    server,
    telegram,
    async signedIn(role = 'OWN') {
      const user = await createClientWithUser(server.database.db, { role });
      return { clientId: user.clientId, token: (await server.login(user.email)).accessToken };
    },
    connect: (token, botToken) =>
      server.request<ChannelAccountView & { message?: string }>('POST', '/api/channels/telegram', {
        token,
        body: { token: botToken },
      }),
    postUpdate: (url, update, secret) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { [telegramSecretHeader]: secret } : {}),
        },
        body: JSON.stringify(update),
      }),
    messagesOf: (clientId) =>
      server.database.db
        .select({
          ticketId: tickets.id,
          customer: tickets.customerName,
          text: messages.text,
          message: messages,
        })
        .from(messages)
        .innerJoin(tickets, eq(tickets.id, messages.ticketId))
        .where(and(eq(messages.clientId, clientId), eq(messages.direction, 'INBOUND')))
        .orderBy(asc(messages.id)),
    journalOf: (clientId) =>
      server.database.query<{ id: string; attempts: number; last_error: string | null }>(
        'select id, attempts, last_error from inbound_journal where client_id = $1 order by id',
        [clientId],
      ),
    async close() {
      await server.close();
      await telegram.stop();
    },
  };
}
