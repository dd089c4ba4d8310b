import type { ChannelCode, TicketPriority } from '@app/contracts';

/** Who wrote a line: the customer, an agent's public reply, or an agent's internal note. */
export type DemoLine = [
  who: 'c' | 'a' | 'n',
  text: string,
  extra?: { gapMinutes?: number; quote?: number; failed?: string },
];

export type DemoAgent = 'owner' | 'supervisor' | 'agent1' | 'agent2';

/** One seeded chat, written the way the demo should read. */
export interface DemoConversation {
  channel: Exclude<ChannelCode, 'LZD' | 'WPU' | 'VBR' | 'LNE' | 'EML'>;
  customer: { key: string; name: string; phone?: string; email?: string };
  /** Today (how late in the day so far, 0 to 1), or days ago at a local hour. */
  start: { today: number } | { daysAgo: number; hour: number };
  status: 'UNASSIGNED' | 'ASSIGNED' | 'CLOSED' | 'RESOLVED';
  assignee?: DemoAgent;
  remarks?: string;
  priority?: TicketPriority;
  tags?: string[];
  subject?: string;
  category?: string;
  group?: 'Penjualan' | 'Komplain';
  lines: DemoLine[];
}

const whatsappWindowClosed =
  'Message failed to send because more than 24 hours have passed since the customer last replied to this number. (131047)';

const customers: Record<string, Omit<DemoConversation['customer'], 'key'>> = {
  dewi: { name: 'Dewi Lestari', phone: '+6281234560001' },
  rizky: { name: 'Rizky Pratama' },
  anita: { name: 'Anita Wijaya', email: 'anita.w@example.com' },
  budi: { name: 'Budi Santoso' },
  sari: { name: 'Sari Handayani' },
  hendra: { name: 'Hendra Gunawan', phone: '+6281234560006' },
  putri: { name: 'Putri Ayu', phone: '+6281234560007' },
  michael: { name: 'Michael Tan', email: 'michael.tan@example.com' },
  nadia: { name: 'Nadia Rahma' },
  agus: { name: 'Agus Salim', phone: '+6281234560010' },
  yoga: { name: 'Yoga Prasetyo' },
  lina: { name: 'Lina Marlina' },
  rudi: { name: 'Rudi Hartono', email: 'rudi.h@example.com' },
  fitri: { name: 'Fitri Amelia', phone: '+6281234560015' },
  dimas: { name: 'Dimas Anggara' },
  wulan: { name: 'Wulan Sari', phone: '+6281234560017' },
  bambang: { name: 'Bambang Wijaya', phone: '+6281234560018' },
  citra: { name: 'Citra Kirana' },
  eko: { name: 'Eko Purnomo', phone: '+6281234560020' },
  grace: { name: 'Grace Natalia' },
  rina: { name: 'Rina Kusuma', email: 'rina.collection@example.com' },
  joko: { name: 'Joko Susilo' },
  maya: { name: 'Maya Sari' },
  kevin: { name: 'Kevin Halim' },
  sri: { name: 'Sri Wahyuni', phone: '+6281234560026' },
  arif: { name: 'Arif Rahman' },
  bella: { name: 'Bella Safira' },
  teguh: { name: 'Teguh Wibowo', phone: '+6281234560029' },
  sinta: { name: 'Sinta Dewi', email: 'sinta.dewi@example.com' },
  andi: { name: 'Andi Saputra', phone: '+6281234560031' },
  marlina: { name: 'Rina Marlina' },
  fajar: { name: 'Fajar Nugroho' },
  hadi: { name: 'Hadi Susanto', email: 'hadi.s@example.com' },
  yuni: { name: 'Yuni Astuti', email: 'yuni.astuti@example.com' },
  irfan: { name: 'Irfan Hakim', phone: '+6281234560036' },
  laras: { name: 'Laras Ati' },
  samuel: { name: 'Samuel Wijaya' },
  ratna: { name: 'Ratna Sari', phone: '+6281234560039' },
  tono: { name: 'Tono Sugiarto', email: 'tono.s@example.com' },
};

/**
 * Reads one chat written as a short script, so the demo reads like the chats it shows:
 *   `WAP dewi | 10d 10h | RESOLVED agent1 | remarks=Pesanan selesai; tags=vip,retur`
 * then one line per message: `c|` customer, `a|` agent, `n|` internal note; `c+90|` comes
 * 90 minutes after the line before, `a>0|` quotes line 0, `a!|` failed to leave.
 */
function chat(script: string): DemoConversation {
  const [header, ...body] = script.trim().split('\n');
  const [who, when, state, options = ''] = header.split('|').map((part) => part.trim());
  const [channel, key] = who.split(' ') as [DemoConversation['channel'], string];
  const [status, assignee] = state.split(' ') as [DemoConversation['status'], DemoAgent | undefined];
  const days = when.match(/^(\d+)d (\d+)h$/);
  const option = Object.fromEntries(
    options
      .split(';')
      .filter(Boolean)
      .map((pair) => pair.split('=').map((part) => part.trim())),
  );
  return {
    channel,
    customer: { key, ...customers[key] },
    start: days ? { daysAgo: Number(days[1]), hour: Number(days[2]) } : { today: Number(when.split(' ')[1]) },
    status,
    assignee,
    remarks: option.remarks,
    priority: option.priority ? (Number(option.priority) as TicketPriority) : undefined,
    tags: option.tags?.split(','),
    subject: option.subject,
    category: option.category,
    group: option.group,
    lines: body.map((line): DemoLine => {
      const [, mark, text] = line.trim().match(/^([^|]+)\|\s?(.*)$/) ?? [];
      const extra = {
        gapMinutes: mark.includes('+') ? Number(mark.split('+')[1]) : undefined,
        quote: mark.includes('>') ? Number(mark.split('>')[1]) : undefined,
        failed: mark.includes('!') ? whatsappWindowClosed : undefined,
      };
      return [mark[0] as DemoLine[0], text, extra];
    }),
  };
}

/** A reseller's month of orders with agent1: the long room (about 120 messages). */
function resellerThread(): DemoLine[] {
  const products = [
    ['hijab voal motif bunga', 'Rp27.500'],
    ['kemeja flanel kotak', 'Rp89.000'],
    ['tumbler 1L', 'Rp62.000'],
    ['tas ransel navy', 'Rp145.000'],
    ['sneakers putih', 'Rp219.000'],
    ['kaos polos katun', 'Rp39.000'],
  ] as const;
  const colours = ['hitam', 'navy', 'maroon', 'dusty pink', 'sage', 'putih'];
  const lines: DemoLine[] = [
    ['c', 'Pagi kak, saya Rina dari Rina Collection Semarang. Mau lanjut order grosir bulan ini ya'],
    [
      'a',
      'Selamat pagi Kak Rina 😊 Siap, silakan kirim daftar kebutuhannya, kami cek stoknya satu per satu.',
    ],
  ];
  for (let round = 0; lines.length < 114; round += 1) {
    const [product, price] = products[round % products.length];
    const colour = colours[(round * 5) % colours.length];
    const quantity = 12 + ((round * 7) % 5) * 6;
    lines.push(
      ['c', `Kak, ${product} warna ${colour} ada stok ${quantity} pcs?`, { gapMinutes: 35 }],
      ['a', `Ada kak, stok ${product} ${colour} masih ${quantity + 20} pcs. Harga grosir ${price}/pcs.`],
      ['c', round % 3 === 0 ? 'Oke masukkan ke pesanan ya kak' : `Sip, ambil ${quantity} pcs ya`],
      ['a', `Sudah masuk ke daftar pesanan Kak Rina: ${quantity} pcs ${product} ${colour} ✅`],
    );
    if (round % 5 === 2)
      lines.push(['n', `Stok ${product} ${colour} menipis, minta gudang siapkan restock.`]);
  }
  lines.push(
    ['c', 'Totalnya jadi berapa kak? Sama ongkir ke Semarang'],
    ['a', 'Total pesanan Rp8.745.000, ongkir kargo ke Semarang Rp120.000. Total Rp8.865.000 ya kak.'],
    ['c', 'Bisa dibantu diskon sedikit kak? Saya sudah langganan 😁'],
    ['n', 'Reseller VIP, supervisor setuju diskon 3%.'],
    ['a', 'Untuk Kak Rina kami kasih potongan 3% jadi Rp8.599.050 termasuk ongkir 🙏'],
    ['c', 'Deal kak, saya transfer siang ini'],
  );
  return lines;
}

/** About 40 chats in every state, over today and the last two weeks. */
export const demoConversations: DemoConversation[] = [
  chat(`WAP dewi | 10d 10h | RESOLVED agent1 | remarks=Pesanan selesai; category=Pertanyaan produk
    c| Kak, kemeja flanel hijau ukuran M ready?
    a| Ready kak, silakan order lewat link tokodemo.id/flanel-hijau ya
    c| Sudah checkout kak
    a| Terima kasih Kak Dewi, pesanan dikirim hari ini 🚚`),
  chat(`WAP dewi | today 0.92 | UNASSIGNED
    c| Halo kak, kemeja flanel kotak-kotak yang merah masih ready?
    c| Ukuran L ya kak`),
  chat(`IGM rizky | today 0.85 | UNASSIGNED | priority=2; tags=instagram-ads
    c| Kak, ini harganya berapa ya? Yang di postingan kemarin
    c| Bisa COD ga?`),
  chat(`LVC anita | 7d 14h | CLOSED agent2 | remarks=Pertanyaan terjawab; category=Pembayaran
    c| Bisa bayar pakai QRIS?
    a| Bisa kak, QRIS tersedia di halaman pembayaran.
    c| Oke makasih`),
  chat(`LVC anita | today 0.8 | UNASSIGNED | priority=1; tags=pengiriman
    c| Selamat siang, saya mau tanya status pesanan INV-20260312-0042
    c| Sudah 4 hari belum sampai`),
  chat(`TPD budi | today 0.7 | UNASSIGNED | category=Pengiriman
    c| Gan, barang sudah dikirim belum? Resinya belum update`),
  chat(`SHP sari | today 0.6 | UNASSIGNED | priority=2
    c| Kak, voucher gratis ongkir tidak bisa dipakai di checkout
    c| Muncul tulisan "voucher tidak berlaku"`),
  chat(`WAP hendra | today 0.3 | ASSIGNED agent1 | priority=2; tags=reseller; subject=Harga grosir hijab voal; category=Pertanyaan produk; group=Penjualan
    c| Selamat pagi, saya reseller dari Bandung. Harga grosir hijab voal minimal 50 pcs berapa ya?
    a| Selamat pagi Pak Hendra, terima kasih sudah menghubungi Toko Demo 🙏 Untuk 50 pcs harganya Rp27.500/pcs (normal Rp35.000).
    c| Wah oke. Warnanya bisa campur?
    a| Bisa Pak, maksimal 10 warna. Saya kirimkan katalog warnanya ya.
    n| Reseller baru dari Bandung, tawarkan paket reseller bulan depan.
    c| Boleh kak, ditunggu`),
  chat(`WAP putri | today 0.4 | ASSIGNED agent1 | priority=1; tags=retur,vip; subject=Sepatu salah ukuran; category=Komplain; group=Komplain
    c| Kak, sepatu yang saya terima ukurannya 38, padahal saya pesan 39 😢
    a| Mohon maaf atas ketidaknyamanannya Kak Putri. Boleh dikirim foto label ukurannya dan nomor pesanannya?
    c| INV-20260314-0117. Labelnya tertulis 38
    a>0| Baik Kak, kami tukar ke ukuran 39 dan ongkos kirim returnya kami tanggung ya.
    c| Terima kasih kak, cepat responnya 👍`),
  chat(`LVC michael | today 0.5 | ASSIGNED agent2
    c| Hi, do you ship to Singapore?
    a| Hi Michael, thanks for reaching out! Yes, we ship to Singapore via J&T International, usually 5-7 working days.
    c| Great. How much is shipping for 2 kg?
    a| For 2 kg it's around Rp285.000. I can send the exact quote once the items are in your cart.
    c| Sounds good, thanks!`),
  chat(`IGM nadia | today 0.65 | ASSIGNED agent2 | priority=2; tags=instagram-ads
    c| Kak tas ransel yang navy ready?
    a| Ready kak 😊 Bisa order langsung lewat tokodemo.id/tas-ransel-navy
    c| Oke kak aku checkout sekarang`),
  chat(`WAP agus | today 0.2 | ASSIGNED supervisor | priority=1; tags=vip; subject=Paket rusak; category=Komplain; group=Komplain
    c| Paket saya datang dalam keadaan rusak, tumblernya penyok
    c| Saya minta ganti yang baru
    n| Packing dari gudang aman (cek foto packing). Kemungkinan rusak di ekspedisi, ajukan klaim ke JNE.
    a| Mohon maaf Pak Agus. Kami kirimkan pengganti hari ini juga tanpa biaya, dan kami urus klaim ke ekspedisi.
    c| Oke terima kasih, ditunggu resinya`),
  chat(`TLG yoga | today 0.15 | ASSIGNED agent1
    c| /start
    c| Mau tanya jam buka toko offline
    a| Halo Kak Yoga, toko offline kami buka Senin–Sabtu 09.00–20.00 WIB di Jl. Melati No. 12, Jakarta Selatan.
    c| Minggu tutup ya kak?
    a| Betul kak, hari Minggu tutup 🙏`),
  chat(`MSG lina | today 0.55 | ASSIGNED agent2 | subject=Konfirmasi pembayaran; category=Pembayaran
    c| Kak saya sudah transfer Rp189.000 ke BCA, mohon dicek
    a| Terima kasih Kak Lina, pembayaran sudah kami terima ✅ Pesanan diproses hari ini.
    c| Siap kak`),
  chat(`LVC rudi | today 0.1 | CLOSED agent1 | remarks=Pertanyaan terjawab
    c| Apakah ada diskon untuk pembelian pertama?
    a| Ada kak, pakai kode HALO10 untuk potongan 10% (maks. Rp25.000).
    c| Mantap, makasih`),
  chat(`WAP fitri | today 0.25 | RESOLVED agent2 | remarks=Pesanan sudah diterima; tags=pengiriman
    c| Kak paket sudah sampai ya, makasih
    a| Sama-sama Kak Fitri, ditunggu order berikutnya 😊`),
  chat(`SHP dimas | today 0.45 | ASSIGNED agent1
    c| Kak, bisa request packing kayu?
    a| Bisa kak, tambahan Rp15.000 ya. Tulis di catatan saat checkout.
    c| Oke kak`),
  chat(`WAP wulan | today 0.95 | UNASSIGNED | priority=1; tags=vip; subject=Ganti alamat kirim
    c| Kak urgent, saya salah input alamat. Pesanan INV-20260315-0021 tolong jangan dikirim dulu
    c| Alamat yang benar: Jl. Kenanga No. 5, Depok`),
  chat(`WAP ratna | today 0.75 | ASSIGNED agent2 | tags=reseller
    c| Kak, minimal order reseller berapa?
    a| Minimal 20 pcs campur kak, harga reseller mulai Rp27.500.
    c| Oke kak, saya hitung dulu ya
    c| Kalau 30 pcs bisa dapat harga lebih murah?`),
  chat(`LVC tono | today 0.35 | RESOLVED agent1 | remarks=Pertanyaan terjawab
    c| Apakah bisa kirim pakai GoSend?
    a| Bisa kak, untuk area Jabodetabek pesanan sebelum jam 15.00 dikirim di hari yang sama.`),
  chat(`WAP bambang | 3d 10h | ASSIGNED agent1 | priority=2; tags=restock
    c| Kak, kapan restock sneakers putih ukuran 42?
    a| Halo Pak Bambang, restock dijadwalkan minggu depan. Nanti kami kabari ya.
    c| Oke kak ditunggu
    a!+1560| Pak Bambang, sneakers putih 42 sudah restock hari ini 🎉`),
  chat(`IGM citra | 3d 19h | UNASSIGNED
    c| Kak ini ready ukuran S?
    c+90| Halo kak?`),
  chat(`WAP eko | 2d 9h | ASSIGNED agent2 | tags=reseller; group=Penjualan
    c| Min, minta pricelist reseller terbaru
    a| Baik Pak Eko, pricelist terbaru kami kirim lewat email ya. Minimal order 20 pcs campur.`),
  chat(`MSG grace | 3d 13h | ASSIGNED agent2 | priority=2
    c| Hi kak, mau tanya bahan kemejanya adem ga?
    a| Halo Kak Grace, bahannya katun flanel, adem dan menyerap keringat 😊
    c| Oke nanti aku kabari lagi ya`),
  {
    ...chat(
      'LVC rina | 4d 8h | ASSIGNED agent1 | priority=2; tags=reseller,vip; subject=Order grosir bulanan; category=Pertanyaan produk; group=Penjualan',
    ),
    lines: resellerThread(),
  },
  chat(`TPD joko | 1d 11h | RESOLVED agent2 | remarks=Resi sudah dikirim; category=Pengiriman; tags=pengiriman
    c| Gan, nomor resi pesanan saya apa ya?
    a| Resi JNE: JNE0123456789, bisa dilacak di jne.co.id ya gan
    c| Sip`),
  chat(`SHP maya | 3d 15h | CLOSED agent1 | remarks=Pelanggan tidak merespons; tags=retur; category=Komplain
    c| Kak barangnya cacat, jahitannya lepas
    a| Mohon maaf kak, boleh kirim foto bagian yang lepas?`),
  chat(`MSG kevin | 5d 16h | RESOLVED owner | remarks=Refund diproses; category=Pembayaran; tags=refund; priority=1
    c| Hello, I was charged twice for order INV-20260308-0090
    a| Sorry about that, Kevin. You're right: the duplicate charge of Rp245.000 will be refunded within 3 working days.
    c| Thank you for the quick help!`),
  chat(`WAP sri | 6d 10h | RESOLVED agent1 | remarks=Pesanan selesai; group=Penjualan
    c| Mau pesan tumbler 1L 3 pcs warna pink
    a| Siap kak, totalnya Rp186.000 belum ongkir. Dikirim ke mana kak?
    c| Surabaya kak
    a| Ongkir Rp18.000, total Rp204.000. Transfer ke BCA 1234567890 a.n. Toko Demo ya
    c| Sudah transfer ya kak
    a| Terima kasih, sudah kami terima dan dikirim besok pagi 🙏`),
  chat(`TLG arif | 8d 20h | CLOSED agent2 | remarks=Pertanyaan terjawab
    c| Ada cabang di Yogyakarta?
    a| Belum ada kak, tapi kami kirim ke seluruh Indonesia 😊`),
  chat(`IGM bella | 2d 21h | RESOLVED agent2 | remarks=Pesanan selesai; tags=instagram-ads
    c| Kak hijab voal motif bunga masih ada?
    a| Masih kak, tersisa 4 pcs 😊
    c| Aku ambil 2 ya
    a| Siap kak, silakan checkout lewat link di bio ya`),
  chat(`WAP teguh | 9d 13h | CLOSED supervisor | remarks=Chat ganda
    c| Kak, pesanan saya kok belum dikirim?
    n| Sudah ditangani di chat Tokopedia, tutup yang ini.
    a| Halo Pak Teguh, pesanan Bapak sudah kami bahas di chat Tokopedia ya 🙏`),
  chat(`LVC sinta | 11d 9h | RESOLVED agent1 | remarks=Pertanyaan terjawab
    c| Kak kalau tukar ukuran bisa?
    a| Bisa kak, maksimal 7 hari setelah barang diterima dan label masih terpasang.`),
  chat(`WAP andi | 12d 15h | RESOLVED agent2 | remarks=Pesanan selesai
    c| Kaos polos hitam XL 5 pcs ada?
    a| Ada kak, Rp195.000 untuk 5 pcs
    c| Oke saya order`),
  chat(`SHP marlina | 13d 10h | CLOSED agent1 | remarks=Pertanyaan terjawab
    c| Kak pengiriman pakai apa saja?
    a| Kami kirim dengan JNE, J&T, SiCepat, dan GoSend untuk Jabodetabek kak.`),
  chat(`TPD fajar | 1d 16h | UNASSIGNED | priority=2
    c| Gan, bisa kirim hari ini?
    c| Saya butuh besok`),
  chat(`LVC hadi | 1d 14h | ASSIGNED agent1 | category=Pertanyaan produk
    c| Tas ransel muat laptop 15 inci?
    a| Muat kak, ada slot laptop sampai 15,6 inci.
    c| Ada garansi?
    a| Garansi resleting 6 bulan kak 😊`),
  chat(`LVC yuni | 1d 19h | UNASSIGNED
    c| Halo, apakah bisa custom bordir nama di kemeja?`),
  chat(`WAP irfan | 4d 11h | RESOLVED supervisor | remarks=Komplain selesai; priority=1; tags=retur; category=Komplain; group=Komplain
    c| Saya terima barang yang salah, saya pesan hitam dapatnya navy
    a| Mohon maaf Pak Irfan, kami kirim yang hitam hari ini dan kurir akan mengambil yang navy.
    c| Oke, sudah diambil kurir tadi
    a| Terima kasih Pak, pengganti sudah dikirim dengan resi JNE0987654321 🙏`),
  chat(`IGM laras | 14d 12h | CLOSED agent2 | remarks=Pertanyaan terjawab
    c| Kak ini bahannya apa?
    a| Bahannya voal premium kak, tidak menerawang.`),
  chat(`TLG samuel | 6d 17h | RESOLVED agent1 | remarks=Pertanyaan terjawab
    c| Hi, is the white sneaker true to size?
    a| Hi Samuel! Yes, it runs true to size. If you are between sizes, pick the bigger one.
    c| Thanks!`),
];
