import nodemailer, { type Transporter } from 'nodemailer';
import type { Executor } from '../../db/client';
import { appendEvent } from '../events/outbox';
import { insertMail, type MailRow, type NewMail } from './mail-outbox';

/** The event that wakes the delivery job once the mail's transaction has committed. */
export const mailQueuedTopic = 'mail.queued';

export interface MailSettings {
  /** smtp:// or smtps:// URL; absent means mail is kept in the local outbox. */
  smtpUrl?: string;
  from: string;
}

/**
 * Outgoing mail, SMS and WhatsApp codes. A service queues a message inside its own
 * transaction (so a rolled-back reset never mails a code); the delivery job sends it
 * after commit, or keeps it for the local mailbox when no provider is configured.
 */
export class MailService {
  private transport?: Transporter;

  constructor(readonly settings: MailSettings) {}

  /** Writes the message and its wake-up event in the caller's transaction. */
  async queue(tx: Executor, mail: NewMail): Promise<MailRow> {
    const row = await insertMail(tx, mail);
    await appendEvent(tx, {
      clientId: mail.clientId,
      topic: mailQueuedTopic,
      rooms: [],
      payload: { mailId: row.id },
    });
    return row;
  }

  /** Whether this channel has a provider; SMS and WhatsApp have none yet. */
  canSend(row: MailRow): boolean {
    return row.channel === 'EMAIL' && Boolean(this.settings.smtpUrl);
  }

  /** Sends one e-mail over SMTP; throws the provider's error. */
  async send(row: MailRow): Promise<void> {
    if (!this.settings.smtpUrl) throw new Error('No SMTP server is configured');
    this.transport ??= nodemailer.createTransport(this.settings.smtpUrl);
    await this.transport.sendMail({
      from: this.settings.from,
      to: row.recipient,
      subject: row.subject,
      text: row.text,
      ...(row.html ? { html: row.html } : {}),
    });
  }

  close(): void {
    this.transport?.close();
  }
}
