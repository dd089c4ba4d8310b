import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface MailboxBody {
  content: Array<{ recipient: string; subject: string; text: string; status: string }>;
  total: number;
}

const post = (path: string, body: unknown) =>
  server.request(`POST`, `/api/identity/users/resetPassword/${path}`, { body });

/** The newest code mailed to the recipient, read the way an owner would: from the local mailbox. */
async function codeFor(recipient: string, ownerToken: string): Promise<{ code: string; status: string }> {
  for (let tries = 0; tries < 100; tries += 1) {
    const mailbox = await server.request<MailboxBody>('GET', '/api/identity/mailbox', { token: ownerToken });
    expect(mailbox.status).toBe(200);
    const mail = mailbox.body.content.find((entry) => entry.recipient === recipient);
    if (mail && mail.status !== 'PENDING') {
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (code) return { code, status: mail.status };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail for ${recipient}`);
}

/** A new owner of a new client, signed in, with a code requested. */
async function accountWithCode() {
  const account = await createClientWithUser(server.database.db);
  const pair = await server.login(account.email);
  const requested = await post('request', { email: account.email.toUpperCase() });
  expect(requested.status).toBe(200);
  const { code } = await codeFor(account.email, pair.accessToken);
  return { ...account, pair, code };
}

describe('forgot password', () => {
  it('mails a code, exchanges it for a reset token, sets the password and ends every session', async () => {
    const account = await createClientWithUser(server.database.db);
    const pair = await server.login(account.email);
    const requested = await post('request', { email: account.email });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({ resendInSeconds: 60, expiresInSeconds: 600 });

    const { code, status } = await codeFor(account.email, pair.accessToken);
    expect(status).toBe('KEPT');
    const [stored] = (
      (await server.database.db.execute(
        sql`select code_hash from one_time_codes where user_id = ${account.userId}`,
      )) as unknown as { rows: Array<{ code_hash: string }> }
    ).rows;
    expect(stored.code_hash).not.toContain(code);

    const validated = await post('validate', { email: account.email, code });
    expect(validated.status).toBe(200);
    const { resetToken } = validated.body as { resetToken: string };
    expect(resetToken.length).toBeGreaterThan(20);

    const confirmed = await post('confirm', {
      resetToken,
      newPassword: 'Fresh9876',
      confirmPassword: 'Fresh9876',
    });
    expect(confirmed.status).toBe(200);

    const refresh = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: pair.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const oldPassword = await server.request('POST', '/api/identity/auth/login', {
      body: { email: account.email, password: 'Demo1234!' },
    });
    expect(oldPassword.status).toBe(401);
    await expect(server.login(account.email, 'Fresh9876')).resolves.toHaveProperty('accessToken');

    const again = await post('confirm', {
      resetToken,
      newPassword: 'Other9876',
      confirmPassword: 'Other9876',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Session timed out, try again',
    });
  });

  it('answers each request error with the spec text', async () => {
    const unknown = await post('request', { email: 'nobody@nowhere.test' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: 'Email not registered' });

    const inactive = await createClientWithUser(server.database.db);
    await server.database.db.execute(sql`update users set status = 'INACTIVE' where id = ${inactive.userId}`);
    const refused = await post('request', { email: inactive.email });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'User is inactive or has been deleted' });

    const deleted = await createClientWithUser(server.database.db);
    await server.database.db.execute(sql`update users set deleted_at = now() where id = ${deleted.userId}`);
    expect((await post('request', { email: deleted.email })).body).toMatchObject({
      message: 'User is inactive or has been deleted',
    });

    const account = await accountWithCode();
    const resend = await post('request', { email: account.email });
    expect(resend.status).toBe(429);
    expect(resend.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Too many request' });
  });

  it('refuses a wrong code, an expired code and a code used twice', async () => {
    const account = await accountWithCode();
    const wrong = await post('validate', {
      email: account.email,
      code: account.code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Incorrect OTP' });

    expect((await post('validate', { email: account.email, code: account.code })).status).toBe(200);
    const reused = await post('validate', { email: account.email, code: account.code });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ message: 'OTP has expired' });

    const late = await accountWithCode();
    await server.database.db.execute(
      sql`update one_time_codes set expires_at = now() - interval '1 second' where user_id = ${late.userId}`,
    );
    const expired = await post('validate', { email: late.email, code: late.code });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ message: 'OTP has expired' });
  });

  it('locks the code after five wrong tries, even against the right one', async () => {
    const account = await accountWithCode();
    const wrongCode = account.code === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await post('validate', { email: account.email, code: wrongCode });
      expect(wrong.body).toMatchObject({ message: 'Incorrect OTP' });
    }
    const locked = await post('validate', { email: account.email, code: account.code });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ message: 'Too many request' });
  });

  it('holds the new password to the identity policy, and an expired token times out', async () => {
    const account = await accountWithCode();
    const validated = await post('validate', { email: account.email, code: account.code });
    const { resetToken } = validated.body as { resetToken: string };
    const confirm = (newPassword: string, confirmPassword = newPassword) =>
      post('confirm', { resetToken, newPassword, confirmPassword });

    expect((await confirm('Fresh9876', 'Fresh9877')).body).toMatchObject({
      message: "New password and confirm password don't match",
    });
    expect((await confirm('short1')).body).toMatchObject({
      message: 'Password must be at least 8 characters and contain letters and numbers',
    });
    expect((await confirm('Demo1234!')).body).toMatchObject({ message: 'Password already used' });

    await server.database.db.execute(
      sql`update one_time_codes set expires_at = now() - interval '1 second' where user_id = ${account.userId}`,
    );
    const timedOut = await confirm('Fresh9876');
    expect(timedOut.status).toBe(400);
    expect(timedOut.body).toMatchObject({ message: 'Session timed out, try again' });
    expect(
      (
        await post('confirm', {
          resetToken: 'made-up',
          newPassword: 'Fresh9876',
          confirmPassword: 'Fresh9876',
        })
      ).body,
    ).toMatchObject({
      message: 'Session timed out, try again',
    });
  });
});

describe('GET /api/identity/mailbox', () => {
  it("shows the caller's client's mail only, to admins only", async () => {
    expect((await post('request', { email: 'agent1@demo.test' })).status).toBe(200);
    const demoOwner = await server.login('owner@demo.test');
    await codeFor('agent1@demo.test', demoOwner.accessToken);

    const other = await createClientWithUser(server.database.db);
    const otherToken = (await server.login(other.email)).accessToken;
    const foreign = await server.request<MailboxBody>('GET', '/api/identity/mailbox', { token: otherToken });
    expect(foreign.status).toBe(200);
    expect(foreign.body.content.some((mail) => mail.recipient === 'agent1@demo.test')).toBe(false);

    const agent = await server.login('agent2@demo.test');
    const forbidden = await server.request('GET', '/api/identity/mailbox', { token: agent.accessToken });
    expect(forbidden.status).toBe(403);
    expect((await server.request('GET', '/api/identity/mailbox')).status).toBe(401);
    expect(
      (await server.request('GET', '/api/identity/mailbox?pageSize=500', { token: demoOwner.accessToken }))
        .status,
    ).toBe(400);
  });
});
