import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { startTestServer, type TestServer } from '../../test/test-server';
import { hashPassword } from './password-hasher';

let server: TestServer;
let sequence = 0;

beforeAll(async () => {
  server = await startTestServer({ env: { DEV_MAILBOX: 'true' } });
});
afterAll(async () => {
  await server?.close();
});

interface DevMailbox {
  content: Array<{ recipient: string; subject: string; text: string; status: string }>;
}

const post = <Body = Record<string, unknown>>(path: string, body: unknown, token?: string) =>
  server.request<Body>('POST', `/api/identity/signup/${path}`, { body, token });

const rows = async <Row>(query: ReturnType<typeof sql>) =>
  ((await server.database.db.execute(query)) as unknown as { rows: Row[] }).rows;

const uniqueEmail = () => {
  sequence += 1;
  return `new-${Date.now().toString(36)}-${sequence}@signup.test`;
};
const uniquePhone = () => `0812${String(Date.now() % 1e7).padStart(7, '0')}${sequence % 10}`;

const account = (overrides: Record<string, unknown> = {}) => ({
  name: 'Nina Baru',
  email: uniqueEmail(),
  phone: uniquePhone(),
  password: 'Rahasia123',
  confirmPassword: 'Rahasia123',
  ...overrides,
});

const store = {
  name: 'Warung Nina',
  businessFields: ['FOOD_DRINK', 'GROCERY'],
  businessType: 'SMALL_BUSINESS',
  businessMode: 'RESTAURANT',
};

/** The newest code mailed to the recipient, read the way a person without SMTP would. */
async function codeFor(recipient: string, settled = false): Promise<{ code: string; status: string }> {
  for (let tries = 0; tries < 100; tries += 1) {
    const mailbox = await server.request<DevMailbox>(
      'GET',
      `/api/dev/mailbox?recipient=${encodeURIComponent(recipient)}`,
    );
    expect(mailbox.status).toBe(200);
    const [mail] = mailbox.body.content;
    const code = mail ? /\b(\d{6})\b/.exec(mail.text)?.[1] : undefined;
    if (mail && code && (!settled || mail.status !== 'PENDING')) return { code, status: mail.status };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail for ${recipient}`);
}

/** The account step done and its code read from the development mailbox. */
async function started(overrides: Record<string, unknown> = {}) {
  const body = account(overrides);
  const answer = await post<{ signupId: string }>('account', body);
  expect(answer.status).toBe(200);
  const { code } = await codeFor(body.email);
  return { ...body, signupId: answer.body.signupId, code };
}

/** Sign-up up to the store step: the code verified, the continue token in hand. */
async function verified(overrides: Record<string, unknown> = {}) {
  const begun = await started(overrides);
  const answer = await post<{ continueToken: string }>('verify', {
    signupId: begun.signupId,
    code: begun.code,
  });
  expect(answer.status).toBe(200);
  return { ...begun, continueToken: answer.body.continueToken };
}

const completion = (
  flow: { signupId: string; continueToken: string },
  overrides: Record<string, unknown> = {},
) => ({
  signupId: flow.signupId,
  continueToken: flow.continueToken,
  store,
  waba: null,
  subscription: { package: 'FREE_TRIAL' },
  ...overrides,
});

describe('sign-up', () => {
  it('creates the client and its owner, signs the owner in, and shows them nothing of the demo', async () => {
    const begun = await started();
    const { status } = await codeFor(begun.email, true);
    expect(status).toBe('KEPT');
    const [stored] = await rows<{ code_hash: string; phone: string }>(
      sql`select code_hash, phone from signup_requests where id = ${begun.signupId}`,
    );
    expect(stored.code_hash).not.toContain(begun.code);
    expect(stored.phone).toMatch(/^628/);
    // No owner's mailbox shows it: the mail has no client.
    const demoOwner = await server.login('owner@demo.test');
    const demoMail = await server.request<DevMailbox>('GET', '/api/identity/mailbox', {
      token: demoOwner.accessToken,
    });
    expect(demoMail.body.content.some((mail) => mail.recipient === begun.email)).toBe(false);

    const check = await post<{ continueToken: string }>('verify', {
      signupId: begun.signupId,
      code: begun.code,
    });
    expect(check.status).toBe(200);
    const flow = { ...begun, continueToken: check.body.continueToken };
    const done = await post<{ accessToken: string; user: { email: string; role: string } }>(
      'complete',
      completion(flow),
    );
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ email: begun.email, role: 'OWN' });

    const [client] = await rows<{
      id: string;
      slug: string;
      business_fields: string[];
      trial_days: number;
    }>(sql`
      select c.id, c.slug, c.business_fields, c.subscription_package,
             round(extract(epoch from c.trial_ends_at - now()) / 86400) as trial_days
        from clients c join users u on u.client_id = c.id where lower(u.email) = ${begun.email}`);
    expect(client).toMatchObject({ slug: 'warung-nina', business_fields: ['FOOD_DRINK', 'GROCERY'] });
    expect(Number(client.trial_days)).toBe(30);
    const [owner] = await rows<{ consent_agreed_at: unknown; shared_login_user_id: unknown }>(
      sql`select consent_agreed_at, shared_login_user_id from users where client_id = ${client.id}`,
    );
    expect(owner).toEqual({ consent_agreed_at: null, shared_login_user_id: null });

    // A second completion with the same token fails cleanly and creates nothing more.
    const again = await post('complete', completion(flow, { store: { ...store, name: 'Warung Lain' } }));
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Session timed out, try again');
    expect(await rows(sql`select id from clients where name = 'Warung Lain'`)).toEqual([]);

    // The new owner sees an empty workspace; the demo owner still sees theirs.
    const token = done.body.accessToken;
    const range = 'createdFrom=2000-01-01T00:00:00.000Z&createdTo=2100-01-01T00:00:00.000Z&pageSize=100';
    const get = <Body>(path: string, as: string) => server.request<Body>('GET', path, { token: as });
    type List = { content: Array<{ id: string | number; email?: string }> };
    const mine = await get<List>(`/api/ticket/ticket/list?${range}`, token);
    expect(mine.status).toBe(200);
    expect(mine.body.content).toEqual([]);
    const demoTickets = await get<List>(`/api/ticket/ticket/list?${range}`, demoOwner.accessToken);
    expect(demoTickets.body.content.length).toBeGreaterThan(0);
    const inbox = await get<List>('/api/csp/chatRoom', token);
    expect(inbox.status).toBe(200);
    expect(inbox.body.content).toEqual([]);
    const staff = await get<List>('/api/identity/admin-users', token);
    expect(staff.status).toBe(200);
    expect(staff.body.content.map((user) => user.email)).toEqual([begun.email]);
    const demoStaff = await get<List>('/api/identity/admin-users', demoOwner.accessToken);
    expect(demoStaff.body.content.some((user) => user.email === begun.email)).toBe(false);
    // A new client starts with the chat room's emoji, attachments and agent names shown.
    const configuration = await get('/api/csp/configuration', token);
    expect(configuration.status).toBe(200);
    expect(configuration.body).toMatchObject({
      isDisplayChatroomEmoji: 1,
      isDisplayChatroomAttachment: 1,
      isDisplayChatroomCSName: 1,
    });

    // The demo owner cannot reach the new client's owner.
    const newOwnerId = staff.body.content[0].id;
    const reach = await server.request('DELETE', `/api/identity/admin-users/${newOwnerId}`, {
      token: demoOwner.accessToken,
    });
    expect(reach.status).toBe(404);
    // The new owner signs in like anyone else.
    await expect(server.login(begun.email, 'Rahasia123')).resolves.toHaveProperty('accessToken');
  });

  it('answers the account step with each error text', async () => {
    const fail = async (overrides: Record<string, unknown>) => {
      const answer = await post('account', account(overrides));
      expect(answer.status).toBe(400);
      return answer.body.message;
    };
    expect(await fail({ email: 'OWNER@demo.test' })).toBe('Email already registered');
    expect(await fail({ email: 'not-an-email' })).toBe('Invalid email');
    expect(await fail({ password: 'short1', confirmPassword: 'short1' })).toBe(
      'Password must be at least 8 characters and contain letters and numbers',
    );
    expect(await fail({ password: 'onlyletters', confirmPassword: 'onlyletters' })).toBe(
      'Password must be at least 8 characters and contain letters and numbers',
    );
    expect(await fail({ confirmPassword: 'Rahasia124' })).toBe('Password is not match');
    expect(await fail({ phone: '12ab' })).toBe('Invalid phone number');
    expect(await fail({ name: '  ' })).toBe('Name is required');
    await server.database.db.execute(
      sql`update clients set waba_phone = '6281299990001' where slug = 'toko-demo'`,
    );
    expect(await fail({ phone: '+62 812-9999-0001' })).toBe(
      'Phone number already registered on a WABA account',
    );
    const missing = await server.request('POST', '/api/identity/signup/account', { body: { name: 'x' } });
    expect(missing.status).toBe(400);
  });

  it('takes each code once, counts wrong tries and lets it expire', async () => {
    const first = await started();
    const wrong = first.code === '000000' ? '111111' : '000000';
    for (let tries = 0; tries < 5; tries += 1) {
      const answer = await post('verify', { signupId: first.signupId, code: wrong });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Incorrect OTP');
    }
    const locked = await post('verify', { signupId: first.signupId, code: first.code });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many request');

    const second = await started();
    expect((await post('verify', { signupId: second.signupId, code: second.code })).status).toBe(200);
    const reused = await post('verify', { signupId: second.signupId, code: second.code });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('OTP has expired');

    const third = await started();
    await server.database.db.execute(
      sql`update signup_requests set expires_at = now() - interval '1 second' where id = ${third.signupId}`,
    );
    const expired = await post('verify', { signupId: third.signupId, code: third.code });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('OTP has expired');
  });

  it('resends after the countdown, kills the old code and keeps the hourly quota', async () => {
    const begun = await started();
    const early = await post('resend', { signupId: begun.signupId });
    expect(early.status).toBe(429);
    await server.database.db.execute(
      sql`update signup_requests set created_at = now() - interval '61 seconds' where id = ${begun.signupId}`,
    );
    const resent = await post<{ signupId: string; resendInSeconds: number }>('resend', {
      signupId: begun.signupId,
    });
    expect(resent.status).toBe(200);
    expect(resent.body.resendInSeconds).toBe(60);
    const old = await post('verify', { signupId: begun.signupId, code: begun.code });
    expect(old.body.message).toBe('OTP has expired');
    const { code } = await codeFor(begun.email);
    expect((await post('verify', { signupId: resent.body.signupId, code })).status).toBe(200);

    // Five codes an hour per e-mail, whichever step sent them.
    const email = uniqueEmail();
    for (let sent = 0; sent < 5; sent += 1)
      expect((await post('account', account({ email }))).status).toBe(200);
    const over = await post('account', account({ email }));
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('Too many request');
  });

  it('refuses a bad completion and writes nothing when the e-mail or number was taken meanwhile', async () => {
    const flow = await verified();
    const badToken = await post('complete', completion(flow, { continueToken: 'not-the-token' }));
    expect(badToken.status).toBe(400);
    expect(badToken.body.message).toBe('Session timed out, try again');
    const tooMany = await post(
      'complete',
      completion(flow, {
        store: { ...store, businessFields: ['FOOD_DRINK', 'GROCERY', 'OTHERS', 'SERVICES'] },
      }),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('Choose at most 3 business fields');
    const wabaTaken = await post('complete', completion(flow, { waba: { phone: '081299990001' } }));
    expect(wabaTaken.body.message).toBe('Phone number already registered on a WABA account');

    const [demo] = await rows<{ id: string }>(sql`select id from clients where slug = 'toko-demo'`);
    await server.database.db.insert(users).values({
      clientId: demo.id,
      email: flow.email,
      name: 'Took It First',
      role: 'USC',
      passwordHash: await hashPassword('Rahasia123'),
    });
    const taken = await post('complete', completion(flow, { store: { ...store, name: 'Toko Terlambat' } }));
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe('Email already registered');
    expect(await rows(sql`select id from clients where name = 'Toko Terlambat'`)).toEqual([]);
    const [request] = await rows<{ completed_at: unknown }>(
      sql`select completed_at from signup_requests where id = ${flow.signupId}`,
    );
    expect(request.completed_at).toBeNull();
  });

  it('keeps a WABA number and a unique slug for a second store of the same name', async () => {
    const flow = await verified();
    const done = await post('complete', completion(flow, { waba: { phone: '+62 811 2222 3333' } }));
    expect(done.status).toBe(200);
    const [client] = await rows<{ slug: string; waba_phone: string }>(sql`
      select c.slug, c.waba_phone from clients c join users u on u.client_id = c.id
       where lower(u.email) = ${flow.email}`);
    expect(client.waba_phone).toBe('6281122223333');
    expect(client.slug).toMatch(/^warung-nina-\d+$/);
  });
});

describe('development mailbox', () => {
  it('is off unless DEV_MAILBOX asks for it', async () => {
    const plain = await startTestServer({ database: server.database });
    try {
      expect((await plain.request('GET', '/api/dev/mailbox')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
