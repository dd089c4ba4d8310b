import type { ChannelCode } from '@app/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import { type ChannelAccountRow, createChannelAccount } from '../../test/inbox-factories';
import { startTestServer, type TestServer } from '../../test/test-server';
import {
  type ChannelAdapter,
  DeliveryError,
  type DeliveryReceipt,
  type OutboundDelivery,
} from '../channels/channel-adapter';
import type { InboundInput, InboundResult } from './conversation.service';
import type { InboxScope } from './inbox.policy';

export const demoUsers = ['owner', 'admin', 'supervisor', 'agent1', 'agent2'] as const;
export type DemoUser = (typeof demoUsers)[number];

/**
 * A stand-in for an outside provider (the only fake the inbox tests use): it records what
 * it was asked to deliver and answers as the test tells it to.
 */
export class FakeProvider implements ChannelAdapter {
  readonly deliveries: OutboundDelivery[] = [];
  /** What the next deliveries answer; the last entry repeats. */
  answers: Array<'sent' | 'delivered' | 'refuse' | 'unreachable'> = ['sent'];

  constructor(readonly channel: ChannelCode) {}

  async deliver(delivery: OutboundDelivery): Promise<DeliveryReceipt> {
    this.deliveries.push(delivery);
    const answer = this.answers.length > 1 ? this.answers.shift()! : this.answers[0];
    if (answer === 'refuse')
      throw new DeliveryError('Recipient is not a valid WhatsApp user (131026)', false);
    if (answer === 'unreachable') throw new DeliveryError('Provider timed out', true);
    return {
      providerMessageId: `wamid.${delivery.messageId}`,
      status: answer === 'delivered' ? 'DELIVERED' : 'SENT',
    };
  }
}

/** A running server with the demo users signed in, two channel accounts and a fake WhatsApp. */
export interface InboxTestKit {
  server: TestServer;
  clientId: string;
  tokens: Record<DemoUser, string>;
  userIds: Record<DemoUser, string>;
  /** A WhatsApp account (chats expire) whose provider is the fake. */
  whatsapp: ChannelAccountRow;
  /** A Telegram account (chats never expire) whose provider is the fake too. */
  telegram: ChannelAccountRow;
  provider: { whatsapp: FakeProvider; telegram: FakeProvider };
  /** A customer message through the real seam; a new customer unless `externalId` is given. */
  inbound(
    account: Pick<ChannelAccountRow, 'id'>,
    input?: Partial<Omit<InboundInput, 'clientId' | 'channelAccountId'>> & { externalId?: string },
  ): Promise<InboundResult>;
}

let customerSequence = 0;

/** Starts the real server on its own database, with the demo seeded and the fakes registered. */
export async function startInboxTestKit(): Promise<InboxTestKit> {
  const server = await startTestServer();
  const clientId = server.demoClientId!;
  const db = server.database.db;
  const tokens = {} as Record<DemoUser, string>;
  const userIds = {} as Record<DemoUser, string>;
  for (const name of demoUsers) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, `${name}@demo.test`), isNull(users.sharedLoginUserId)));
    userIds[name] = row.id;
    tokens[name] = (await server.login(`${name}@demo.test`)).accessToken;
  }
  const provider = { whatsapp: new FakeProvider('WAP'), telegram: new FakeProvider('TLG') };
  server.channels.register(provider.whatsapp);
  server.channels.register(provider.telegram);
  const whatsapp = await createChannelAccount(db, clientId, { channel: 'WAP' });
  const telegram = await createChannelAccount(db, clientId, { channel: 'TLG' });
  return {
    server,
    clientId,
    tokens,
    userIds,
    whatsapp,
    telegram,
    provider,
    inbound(account, { externalId, ...input } = {}) {
      customerSequence += 1;
      return server.conversations.receiveInbound({
        clientId,
        channelAccountId: account.id,
        customer: {
          externalId: externalId ?? `62812${Date.now().toString().slice(-6)}${customerSequence}`,
          name: `Pelanggan ${customerSequence}`,
        },
        text: 'Halo kak, mau tanya stok',
        ...input,
      });
    },
  };
}

/**
 * Tokens of two people who must not reach the kit's client: a user of another client (answered
 * 404) and one of a role without the inbox permission (answered 403).
 */
export async function outsiderTokens(kit: InboxTestKit): Promise<{ stranger: string; noPermission: string }> {
  const other = await createClientWithUser(kit.server.database.db);
  const sad = await createClientWithUser(kit.server.database.db, { role: 'SAD' });
  return {
    stranger: (await kit.server.login(other.email)).accessToken,
    noPermission: (await kit.server.login(sad.email)).accessToken,
  };
}

/** Ticket ids of the first page of chat history search for the keyword, as the owner sees them. */
export async function searchedTicketIds(kit: InboxTestKit, keyword: string): Promise<number[]> {
  const response = await kit.server.request<{ content: Array<{ ticket: { id: number } }> }>(
    'GET',
    `/api/ticket/search?keyword=${encodeURIComponent(keyword)}`,
    { token: kit.tokens.owner },
  );
  if (response.status !== 200) throw new Error(`search answered ${response.status}`);
  return response.body.content.map((hit) => hit.ticket.id);
}

export { eventually } from '../../test/eventually';

/** The demo owner's inbox scope: sees, answers and manages every chat of the kit's client. */
export function ownerScopeOf(kit: InboxTestKit): InboxScope {
  return {
    userId: kit.userIds.owner,
    clientId: kit.clientId,
    seesAll: true,
    seesQueue: true,
    canReply: true,
    canBeAssigned: true,
    canManage: true,
  };
}
