import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../../db/schema';
import { createClientWithUser } from '../../test/factories';
import {
  startTestPushService,
  type TestBrowserSubscription,
  type TestPushService,
} from '../../test/push-service';
import { eventually, type InboxTestKit, startInboxTestKit } from '../inbox/conversation.fixtures';
import { planPushJob } from './push.jobs';

/** A message event as the relay hands it to push planning (`pushPlanningFields`). */
interface PlannedPayload {
  message: { direction: string; kind: string; text: string };
  ticket: {
    id: number;
    status: string;
    assigneeId: string | null;
    lastMessagePreview: string;
    customer: { name: string };
  };
}

let kit: InboxTestKit;
let pushService: TestPushService;
let stranger: { token: string; clientId: string };

beforeAll(async () => {
  kit = await startInboxTestKit();
  pushService = await startTestPushService(kit.server.config.vapid.publicKey);
  const other = await createClientWithUser(kit.server.database.db);
  stranger = { token: (await kit.server.login(other.email)).accessToken, clientId: other.clientId };
});
afterAll(async () => {
  await kit?.server.close();
  await pushService?.close();
});

const saveProfile = (token: string | undefined, body: unknown) =>
  kit.server.request<{ pushEnabled: boolean; message?: string }>('PUT', '/api/identity/users/userProfile', {
    token,
    body,
  });
const subscribe = async (token: string, browser: TestBrowserSubscription) => {
  const response = await saveProfile(token, {
    pushSubscription: { endpoint: browser.endpoint, keys: browser.keys },
  });
  expect(response.status).toBe(200);
  return response;
};
/** A new session of a demo user: each session holds its own subscription. */
const signIn = async (name: string) => (await kit.server.login(`${name}@demo.test`)).accessToken;
const rowOf = async (browser: TestBrowserSubscription) => {
  const [row] = await kit.server.database.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpoint, browser.endpoint));
  return row;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('GET /api/identity/pushnotif/vapid-public-key', () => {
  it('gives the signed-in user the key to subscribe with; 401 without a token', async () => {
    const answer = await kit.server.request<{ publicKey: string }>(
      'GET',
      '/api/identity/pushnotif/vapid-public-key',
      { token: kit.tokens.agent1 },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.publicKey).toBe(kit.server.config.vapid.publicKey);
    expect(Buffer.from(answer.body.publicKey, 'base64url')).toHaveLength(65);
    const anonymous = await kit.server.request('GET', '/api/identity/pushnotif/vapid-public-key');
    expect(anonymous.status).toBe(401);
  });
});

describe('PUT /api/identity/users/userProfile', () => {
  it('stores the session subscription, replaces it on re-subscribe, removes it with null', async () => {
    const token = await signIn('agent2');
    const first = pushService.subscribe();
    expect((await subscribe(token, first)).body).toEqual({ pushEnabled: true });
    expect(await rowOf(first)).toMatchObject({ userId: kit.userIds.agent2, p256dh: first.keys.p256dh });
    const second = pushService.subscribe();
    await subscribe(token, second);
    expect(await rowOf(first)).toBeUndefined();
    expect(await rowOf(second)).toBeDefined();
    const off = await saveProfile(token, { pushSubscription: null });
    expect(off.body).toEqual({ pushEnabled: false });
    expect(await rowOf(second)).toBeUndefined();
  });

  it('refuses bad input with 400, a plain-http endpoint elsewhere than localhost, and no token with 401', async () => {
    const browser = pushService.subscribe();
    const bad = [
      {},
      { pushSubscription: { endpoint: 'not a url', keys: browser.keys } },
      { pushSubscription: { endpoint: browser.endpoint, keys: { ...browser.keys, p256dh: 'short' } } },
      { pushSubscription: { endpoint: browser.endpoint, keys: { p256dh: browser.keys.p256dh } } },
    ];
    for (const body of bad) expect((await saveProfile(kit.tokens.agent1, body)).status).toBe(400);
    const insecure = await saveProfile(kit.tokens.agent1, {
      pushSubscription: { endpoint: 'http://push.example.com/x', keys: browser.keys },
    });
    expect(insecure.status).toBe(400);
    expect(insecure.body).toMatchObject({ statusCode: 400, message: 'Push endpoint must be an https URL' });
    expect((await saveProfile(undefined, { pushSubscription: null })).status).toBe(401);
  });
});

describe('POST /api/identity/pushnotif/offline', () => {
  it('answers whether this session still gets pushes; 401 without a token', async () => {
    const token = await signIn('agent2');
    const offline = () =>
      kit.server.request<{ pushEnabled: boolean }>('POST', '/api/identity/pushnotif/offline', { token });
    expect((await offline()).body).toEqual({ pushEnabled: false });
    await subscribe(token, pushService.subscribe());
    expect((await offline()).body).toEqual({ pushEnabled: true });
    expect((await kit.server.request('POST', '/api/identity/pushnotif/offline')).status).toBe(401);
  });
});

describe('pushes for customer messages', () => {
  it('pushes a new chat to the queue watchers, signed and encrypted, and never to another client', async () => {
    const owner = pushService.subscribe();
    const agent = pushService.subscribe();
    const outsider = pushService.subscribe();
    await subscribe(await signIn('owner'), owner);
    await subscribe(await signIn('agent1'), agent);
    await subscribe(stranger.token, outsider);
    const { ticket } = await kit.inbound(kit.whatsapp, { text: `Halo kak, ${'stok '.repeat(40)}` });
    const [push] = await eventually(
      async () => pushService.pushesTo(owner).length > 0 && pushService.pushesTo(owner),
    );
    expect(push.problem).toBeNull();
    expect(push.payload).toEqual({
      title: ticket.customer.name,
      body: ticket.lastMessagePreview.slice(0, 120),
      url: `/customer-service/inbox-chatroom?ticketId=${ticket.id}`,
      tag: `ticket-${ticket.id}`,
    });
    expect((push.payload as { body: string }).body.length).toBeLessThanOrEqual(120);
    expect(push.headers).toMatchObject({ 'content-encoding': 'aes128gcm', urgency: 'high' });
    await eventually(async () => (await rowOf(owner))?.lastSuccessAt);
    await settle();
    // An agent does not watch the queue; the other client's user never hears of this client.
    expect(pushService.pushesTo(agent)).toHaveLength(0);
    expect(pushService.pushesTo(outsider)).toHaveLength(0);
  });

  it('pushes a message of an assigned chat to its assignee only, and nothing for an agent reply', async () => {
    const agent = pushService.subscribe();
    const owner = pushService.subscribe();
    await subscribe(await signIn('agent1'), agent);
    await subscribe(await signIn('owner'), owner);
    const externalId = `tg-push-${Date.now()}`;
    const { ticket } = await kit.inbound(kit.telegram, { externalId });
    await eventually(async () => pushService.pushesTo(owner).length === 1);
    const transfer = await kit.server.request('POST', '/api/csp/chatRoom/transfer', {
      token: kit.tokens.owner,
      body: { ticketId: ticket.id, assigneeId: kit.userIds.agent1 },
    });
    expect(transfer.status).toBe(200);
    const reply = await kit.server.request('POST', '/api/csp/chat/secure', {
      token: kit.tokens.agent1,
      body: { ticketId: ticket.id, clientMessageId: `push-${Date.now()}`, text: 'Ada kak' },
    });
    expect(reply.status).toBe(201);
    const next = await kit.inbound(kit.telegram, { externalId, text: 'Kirim hari ini ya' });
    expect(next.ticket.id).toBe(ticket.id);
    await eventually(async () => pushService.pushesTo(agent).length === 1);
    expect(pushService.pushesTo(agent)[0].payload).toMatchObject({ body: 'Kirim hari ini ya' });
    await settle();
    // The owner had the new chat; the assigned chat's message and the reply are not theirs.
    expect(
      pushService
        .pushesTo(owner)
        .filter((push) => (push.payload as { tag: string }).tag === `ticket-${ticket.id}`),
    ).toHaveLength(1);
    // Planning was handed the customer's two messages, not the reply, and only what it reads.
    const planned = (await kit.server.database.db.execute(
      sql`select data from pgboss.job where name = ${planPushJob} order by created_on, id`,
    )) as unknown as { rows: Array<{ data: { events: Array<{ payload: PlannedPayload }> } }> };
    const ofTicket = planned.rows
      .flatMap((row) => row.data.events)
      .filter((event) => event.payload.ticket.id === ticket.id)
      .map((event) => event.payload);
    expect(ofTicket.map((payload) => payload.message.text)).toEqual([
      expect.any(String),
      'Kirim hari ini ya',
    ]);
    expect(ofTicket[1]).toEqual({
      message: { direction: 'INBOUND', kind: 'PublicMessage', text: 'Kirim hari ini ya' },
      ticket: {
        id: ticket.id,
        status: 'ASSIGNED',
        assigneeId: kit.userIds.agent1,
        lastMessagePreview: 'Kirim hari ini ya',
        customer: { name: expect.any(String) },
      },
    });
  });

  it('marks a subscription the push service says is gone (410) expired and sends it nothing more', async () => {
    const browser = pushService.subscribe();
    pushService.answers.set(new URL(browser.endpoint).pathname, [410]);
    await subscribe(await signIn('admin'), browser);
    await kit.inbound(kit.whatsapp);
    await eventually(async () => (await rowOf(browser))?.expiredAt);
    await kit.inbound(kit.whatsapp);
    await settle();
    expect(pushService.pushesTo(browser)).toHaveLength(1);
  });

  it('retries a push the push service could not take (500) until it is accepted', async () => {
    const browser = pushService.subscribe();
    pushService.answers.set(new URL(browser.endpoint).pathname, [500, 201]);
    await subscribe(await signIn('supervisor'), browser);
    await kit.inbound(kit.whatsapp);
    await eventually(async () => (await rowOf(browser))?.lastSuccessAt, 20_000);
    expect(pushService.pushesTo(browser).map((push) => push.status)).toEqual([500, 201]);
    expect(pushService.pushesTo(browser).every((push) => push.problem === null)).toBe(true);
  });
});

describe('sign-out', () => {
  it('removes the session subscription (core-inbox: logout revokes the push status)', async () => {
    const pair = await kit.server.login('supervisor@demo.test');
    const browser = pushService.subscribe();
    await subscribe(pair.accessToken, browser);
    const logout = await kit.server.request('POST', '/api/identity/auth/logout', {
      token: pair.accessToken,
      body: { refreshToken: pair.refreshToken },
    });
    expect(logout.status).toBe(200);
    await eventually(async () => (await rowOf(browser)) === undefined);
    await kit.inbound(kit.whatsapp);
    await settle();
    expect(pushService.pushesTo(browser)).toHaveLength(0);
    const [left] = await kit.server.database.db
      .select()
      .from(pushSubscriptions)
      .where(
        and(eq(pushSubscriptions.clientId, kit.clientId), eq(pushSubscriptions.endpoint, browser.endpoint)),
      );
    expect(left).toBeUndefined();
  });
});
