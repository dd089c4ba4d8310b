/**
 * Every text the visitor sees. Indonesian is the default; a browser set to English gets
 * English. `{name}` is replaced by the caller.
 */
const id = {
  openChat: 'Buka chat',
  closeChat: 'Tutup chat',
  nameLabel: 'Nama',
  emailLabel: 'Email',
  emailOptional: 'Email (opsional)',
  required: 'Wajib diisi',
  invalidEmail: 'Email tidak valid',
  invalidPhone: 'Nomor telepon tidak valid',
  emailOffline: 'Tidak ada agen yang online. Isi email agar kami bisa membalas.',
  consentRequired: 'Centang persetujuan untuk melanjutkan',
  startChat: 'Mulai chat',
  starting: 'Memulai…',
  placeholder: 'Tulis pesan…',
  send: 'Kirim',
  attach: 'Lampirkan file',
  typing: '{name} sedang mengetik…',
  agentJoined: '{name} bergabung dalam chat',
  agent: 'Agen',
  you: 'Anda',
  sending: 'Mengirim',
  sent: 'Terkirim',
  read: 'Dibaca',
  failed: 'Gagal terkirim. Ketuk untuk mengirim ulang.',
  connecting: 'Menghubungkan…',
  uploading: 'Mengunggah {name}…',
  rateLimited: 'Terlalu banyak pesan. Tunggu sebentar lalu coba lagi.',
  emptyMessage: 'Pesan tidak boleh kosong.',
  tooLong: 'Pesan terlalu panjang (maksimal 4096 karakter).',
  attachmentType: 'Jenis file ini tidak didukung.',
  attachmentSize: 'Ukuran file terlalu besar.',
  uploadFailed: 'Gagal mengunggah file.',
  sendFailed: 'Pesan gagal terkirim. Coba lagi.',
  loadFailed: 'Live chat tidak dapat dimuat. Coba lagi nanti.',
  notAllowed: 'Live chat ini tidak tersedia di situs ini.',
  startFailed: 'Chat tidak dapat dimulai. Coba lagi.',
  tooManyStarts: 'Terlalu banyak percobaan. Coba lagi nanti.',
  emptyConversation: 'Kirim pesan untuk memulai percakapan.',
};

export type Texts = typeof id;

const en: Texts = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  nameLabel: 'Name',
  emailLabel: 'Email',
  emailOptional: 'Email (optional)',
  required: 'Required',
  invalidEmail: 'Invalid email',
  invalidPhone: 'Invalid phone number',
  emailOffline: 'No agent is online. Leave your email so we can answer you.',
  consentRequired: 'Tick the consent box to continue',
  startChat: 'Start chat',
  starting: 'Starting…',
  placeholder: 'Write a message…',
  send: 'Send',
  attach: 'Attach a file',
  typing: '{name} is typing…',
  agentJoined: '{name} joined the chat',
  agent: 'Agent',
  you: 'You',
  sending: 'Sending',
  sent: 'Sent',
  read: 'Read',
  failed: 'Not sent. Tap to send again.',
  connecting: 'Connecting…',
  uploading: 'Uploading {name}…',
  rateLimited: 'Too many messages. Wait a moment and try again.',
  emptyMessage: 'The message is empty.',
  tooLong: 'The message is too long (at most 4096 characters).',
  attachmentType: 'This type of file is not supported.',
  attachmentSize: 'The file is too large.',
  uploadFailed: 'The file could not be uploaded.',
  sendFailed: 'The message could not be sent. Try again.',
  loadFailed: 'The live chat could not be loaded. Try again later.',
  notAllowed: 'This live chat is not available on this site.',
  startFailed: 'The chat could not be started. Try again.',
  tooManyStarts: 'Too many attempts. Try again later.',
  emptyConversation: 'Send a message to start the conversation.',
};

/** The texts for the browser's language: English for `en*`, Indonesian otherwise. */
export function textsFor(language: string | undefined): Texts {
  return language?.toLowerCase().startsWith('en') ? en : id;
}

/** A text with `{name}` filled in. */
export function format(text: string, name: string): string {
  return text.replace('{name}', name);
}
