import type { ConsentBody } from '@app/contracts';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/tenant';
import type { AuthContext } from '../../platform/http/authentication';
import { unauthorized } from '../../platform/http/http-errors';
import { findUser, updateUser } from './user.repository';

/** The privacy consent text, served as plain text by language (core-inbox §4 User consent). */
export const consentDocuments = {
  id: [
    'Persetujuan Privasi',
    '',
    'Kami memproses data percakapan pelanggan, kontak dan akun Anda hanya untuk menjalankan layanan kotak masuk ini: menerima dan mengirim pesan, membagi chat ke agen, dan menyusun laporan untuk bisnis Anda.',
    'Data disimpan dengan aman, tidak dijual, dan hanya dibagikan kepada penyedia kanal (misalnya WhatsApp) sejauh diperlukan untuk mengirim pesan.',
    'Anda dapat meminta salinan atau penghapusan data melalui pemilik akun bisnis Anda.',
    'Dengan menekan Setuju, Anda menyetujui pemrosesan data tersebut.',
  ].join('\n'),
  en: [
    'Privacy Consent',
    '',
    'We process customer conversations, contacts and your account data only to run this inbox: receiving and sending messages, routing chats to agents and preparing reports for your business.',
    'Data is stored securely, never sold, and shared with channel providers (such as WhatsApp) only as far as needed to deliver messages.',
    "You may ask for a copy or the deletion of your data through your business account's owner.",
    'By pressing Approve you agree to this processing.',
  ].join('\n'),
} as const;

/** Records the answer to the consent dialog: approve keeps the agreement, dismiss only the time. */
export class ConsentService {
  constructor(private readonly db: Database) {}

  async record(caller: AuthContext, body: ConsentBody) {
    return withTenant(this.db, caller.clientId, async (tx) => {
      const user = await findUser(tx, caller.clientId, caller.userId);
      if (!user) throw unauthorized();
      const consentTimestamp = new Date(body.consentTimestamp);
      const consentAgreedAt = body.agreed ? new Date() : user.consentAgreedAt;
      await updateUser(tx, caller.clientId, caller.userId, { consentTimestamp, consentAgreedAt });
      return {
        consentAgreedAt: consentAgreedAt?.toISOString() ?? null,
        consentTimestamp: consentTimestamp.toISOString(),
      };
    });
  }
}
