import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUser } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/test-server';

let server: TestServer;
let sequence = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface MailboxBody {
  content: Array<{ channel: string; recipient: string; text: string; status: string }>;
}

const post = (path: string, body: unknown) =>
  server.request(`POST`, `/api/identity/users/resetPassword/phone/${path}`, { body });

const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows;

/** A new owner of a new client with a unique Indonesian number stored the normalised way. */
async function ownerWithPhone() {
  const account = await createClientWithUser(server.database.db);
  sequence += 1;
  const phone = `6281${Date.now().toString().slice(-7)}${sequence.toString().padStart(2, '0')}`;
  await server.database.db.execute(sql`update users set phone = ${phone} where id = ${account.userId}`);
  const pair = await server.login(account.email);
  return { ...account, phone, local: `0${phone.slice(2)}`, pair };
}

/** The newest SMS to the number, read the way an owner would: from the local mailbox. */
async function smsCodeFor(phone: string, ownerToken: string): Promise<{ code: string; status: string }> {
  for (let tries = 0; tries < 100; tries += 1) {
    const mailbox = await server.request<MailboxBody>('GET', '/api/identity/mailbox', { token: ownerToken });
    expect(mailbox.status).toBe(200);
    const sms = mailbox.body.content.find((entry) => entry.recipient === phone && entry.channel === 'SMS');
    if (sms && sms.status !== 'PENDING') {
      const code = /\b(\d{5})\b/.exec(sms.text)?.[1];
      if (code) return { code, status: sms.status };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no SMS for ${phone}`);
}

/** An owner with a code requested by the local (08…) form of the number. */
async function ownerWithCode() {
  const owner = await ownerWithPhone();
  const requested = await post('request', { phone: owner.local });
  expect(requested.status).toBe(200);
  const { code } = await smsCodeFor(owner.phone, owner.pair.accessToken);
  return { ...owner, code };
}

describe('reset by phone', () => {
  it('texts a 5-digit code, exchanges it for a token, sets the password and ends every session', async () => {
    const owner = await ownerWithPhone();
    const requested = await post('request', { phone: `+${owner.phone}` });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({ resendInSeconds: 60, expiresInSeconds: 600 });

    const { code, status } = await smsCodeFor(owner.phone, owner.pair.accessToken);
    expect(status).toBe('KEPT');
    const [stored] = rowsOf<{ code_hash: string; purpose: string }>(
      await server.database.db.execute(
        sql`select code_hash, purpose from one_time_codes where user_id = ${owner.userId}`,
      ),
    );
    expect(stored.purpose).toBe('PASSWORD_RESET_PHONE');
    expect(stored.code_hash).not.toContain(code);

    const validated = await post('validate', { phone: owner.local, code });
    expect(validated.status).toBe(200);
    const { resetToken } = validated.body as { resetToken: string };

    const confirmed = await post('confirm', {
      resetToken,
      newPassword: 'Fresh98#',
      confirmPassword: 'Fresh98#',
    });
    expect(confirmed.status).toBe(200);
    const refresh = await server.request('POST', '/api/identity/auth/refresh-access', {
      body: { refreshToken: owner.pair.refreshToken },
    });
    expect(refresh.status).toBe(401);
    await expect(server.login(owner.email, 'Fresh98#')).resolves.toHaveProperty('accessToken');

    const reused = await post('confirm', {
      resetToken,
      newPassword: 'Other98#x',
      confirmPassword: 'Other98#x',
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ message: 'Session timed out, try again' });
    const codeAgain = await post('validate', { phone: owner.phone, code });
    expect(codeAgain.body).toMatchObject({ statusCode: 400, message: 'OTP has expired' });
  });

  it("answers 404 'Phone number is not register' for an unknown, inactive or malformed number", async () => {
    const unknown = await post('request', { phone: '081200000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Phone number is not register',
    });

    const owner = await ownerWithPhone();
    await server.database.db.execute(sql`update users set status = 'INACTIVE' where id = ${owner.userId}`);
    expect((await post('request', { phone: owner.phone })).body).toMatchObject({
      message: 'Phone number is not register',
    });
    expect((await post('validate', { phone: 'not-a-phone', code: '12345' })).status).toBe(404);
  });

  it("counts wrong codes: 'Incorrect OTP', then 'Too many request' after five; expired codes say so", async () => {
    const owner = await ownerWithCode();
    const wrong = owner.code === '00000' ? '11111' : '00000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await post('validate', { phone: owner.phone, code: wrong });
      expect(answer.body).toMatchObject({ statusCode: 400, message: 'Incorrect OTP' });
    }
    const locked = await post('validate', { phone: owner.phone, code: owner.code });
    expect(locked.body).toMatchObject({ statusCode: 429, message: 'Too many request' });

    const second = await ownerWithCode();
    await server.database.db.execute(
      sql`update one_time_codes set expires_at = now() - interval '1 second' where user_id = ${second.userId}`,
    );
    const expired = await post('validate', { phone: second.phone, code: second.code });
    expect(expired.body).toMatchObject({ statusCode: 400, message: 'OTP has expired' });
  });

  it('demands a special character, the usual policy, matching confirmation and no recent password', async () => {
    const owner = await ownerWithCode();
    const validated = await post('validate', { phone: owner.phone, code: owner.code });
    const { resetToken } = validated.body as { resetToken: string };
    const confirm = (newPassword: string, confirmPassword = newPassword) =>
      post('confirm', { resetToken, newPassword, confirmPassword });

    expect((await confirm('Fresh987', 'Fresh988')).body).toMatchObject({
      message: "New password and confirm password don't match",
    });
    expect((await confirm('Fresh987')).body).toMatchObject({
      statusCode: 400,
      message: 'Password must contain a special character',
    });
    expect((await confirm('short#1')).body).toMatchObject({
      message: 'Password must be at least 8 characters and contain letters and numbers',
    });
    expect((await confirm('Demo1234!')).body).toMatchObject({ message: 'Password already used' });
    // The token survives refused passwords: only a successful change uses it up.
    expect((await confirm('Brand-new7')).status).toBe(200);

    const tokenOfEmailFlow = await server.request('POST', '/api/identity/users/resetPassword/confirm', {
      body: { resetToken, newPassword: 'Another-9', confirmPassword: 'Another-9' },
    });
    expect(tokenOfEmailFlow.body).toMatchObject({ message: 'Session timed out, try again' });
  });

  it('keeps one code per number alive, holds the resend for 60 s and limits codes per address', async () => {
    const owner = await ownerWithCode();
    const tooSoon = await post('request', { phone: owner.phone });
    expect(tooSoon.body).toMatchObject({ statusCode: 429, message: 'Too many request' });

    await server.database.db.execute(
      sql`update one_time_codes set created_at = now() - interval '2 minutes' where user_id = ${owner.userId}`,
    );
    expect((await post('request', { phone: owner.phone })).status).toBe(200);
    const old = await post('validate', { phone: owner.phone, code: owner.code });
    expect(old.body).toMatchObject({ statusCode: 400 });

    let limited = 0;
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const answer = await post('request', { phone: '081299999999' });
      if (answer.status === 429) limited += 1;
    }
    expect(limited).toBeGreaterThan(0);
  });
});
