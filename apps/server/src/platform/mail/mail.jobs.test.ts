import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually';
import { startTestServer, type TestServer } from '../../test/test-server';
import { mailRetryDelaySeconds } from './mail.jobs';
import { startTestSmtpServer } from './test-smtp-server';

type Smtp = Awaited<ReturnType<typeof startTestSmtpServer>>;

interface MailboxBody {
  content: Array<{ recipient: string; status: string; error: string | null; sentAt: string | null }>;
}

/** Waits until the recipient's newest mail, read through the owner's mailbox, satisfies the check. */
async function waitForMail(
  server: TestServer,
  recipient: string,
  done: (mail: MailboxBody['content'][0]) => boolean,
) {
  const { accessToken } = await server.login('owner@demo.test');
  return eventually(
    async () => {
      const mailbox = await server.request<MailboxBody>('GET', '/api/identity/mailbox', {
        token: accessToken,
      });
      const mail = mailbox.body.content.find((entry) => entry.recipient === recipient);
      return mail && done(mail) ? mail : undefined;
    },
    10_000,
    { message: `mail to ${recipient} never settled` },
  );
}

describe('mail over SMTP when SMTP_URL is set', () => {
  let smtp: Smtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Toko Demo <no-reply@demo.test>' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('sends the reset code to the SMTP server and marks the row SENT', async () => {
    const requested = await server.request('POST', '/api/identity/users/resetPassword/request', {
      body: { email: 'agent1@demo.test' },
    });
    expect(requested.status).toBe(200);
    const mail = await waitForMail(server, 'agent1@demo.test', (entry) => entry.status !== 'PENDING');
    expect(mail.status).toBe('SENT');
    expect(mail.sentAt).not.toBeNull();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].from).toBe('no-reply@demo.test');
    expect(smtp.received[0].to).toEqual(['agent1@demo.test']);
    expect(smtp.received[0].data).toMatch(/\b\d{6}\b/);
  });
});

describe('mail the SMTP server refuses', () => {
  let smtp: Smtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer({ refuseRecipients: true });
    server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('keeps the row pending with the reason, for a retry with backoff', async () => {
    await server.request('POST', '/api/identity/users/resetPassword/request', {
      body: { email: 'agent1@demo.test' },
    });
    const mail = await waitForMail(server, 'agent1@demo.test', (entry) => entry.error !== null);
    expect(mail.status).toBe('PENDING');
    expect(mail.error).toMatch(/550|mailbox unavailable/);
    expect(smtp.received).toHaveLength(0);
    expect([2, 3, 4, 5].map((attempt) => mailRetryDelaySeconds(attempt, 10))).toEqual([10, 20, 40, 80]);
  });
});
