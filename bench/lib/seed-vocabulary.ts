// The seed's words (bench:seed): the questions and answers customers and agents write, in
// Indonesian and English, and the first, middle and family names customers get, as temporary
// tables of the seed's session that each client's fill (seed-client.ts) joins by number.
import type { SeedQuery } from './seed-client';

/** Makes the temporary tables phrases, pq (questions), pa (answers), first_names, middle_names and last_names. */
export async function createVocabularyTables(q: SeedQuery): Promise<void> {
  await q(`
  create temporary table phrases (lang text, kind text, body text);
  insert into phrases values
   ('id','q','Halo kak, apakah produk ini masih ready stok?'),
   ('id','q','Kak, pesanan saya belum sampai, bisa dicek nomor resinya?'),
   ('id','q','Mau tanya ongkir ke Surabaya berapa ya?'),
   ('id','q','Apakah bisa bayar pakai COD atau transfer bank BCA?'),
   ('id','q','Ukuran XL untuk warna hitam masih ada kak?'),
   ('id','q','Barang yang saya terima rusak, bagaimana cara retur?'),
   ('id','q','Kapan promo gratis ongkir berakhir?'),
   ('id','q','Saya sudah transfer, mohon dikonfirmasi pembayarannya'),
   ('id','q','Bisa kirim hari ini pakai kurir instan ke Jakarta Selatan?'),
   ('id','q','Voucher diskon saya tidak bisa dipakai di checkout'),
   ('id','q','Garansi produk ini berapa lama ya kak?'),
   ('id','q','Tolong batalkan pesanan saya yang kemarin'),
   ('id','a','Halo kak, terima kasih sudah menghubungi kami. Stok masih tersedia ya.'),
   ('id','a','Baik kak, pesanan sedang dikemas dan akan dikirim hari ini.'),
   ('id','a','Nomor resi sudah kami kirimkan lewat email, silakan dicek kak.'),
   ('id','a','Mohon maaf atas ketidaknyamanannya, kami proses retur segera.'),
   ('id','a','Pembayaran sudah kami terima, terima kasih kak!'),
   ('id','a','Ongkir ke Surabaya Rp18.000 dengan estimasi 2-3 hari kerja.'),
   ('id','a','Garansi resmi 12 bulan dari distributor ya kak.'),
   ('id','a','Pesanan kakak sudah kami batalkan dan dana dikembalikan.'),
   ('en','q','Hi, is this item still in stock?'),
   ('en','q','My order has not arrived yet, can you check the tracking number?'),
   ('en','q','Do you ship to Singapore and how much is the shipping fee?'),
   ('en','q','The package arrived damaged, how do I request a refund?'),
   ('en','q','Can I change the colour of my order to blue?'),
   ('en','a','Thanks for reaching out! The item is in stock and ships today.'),
   ('en','a','Your refund has been processed and should arrive within 3 days.'),
   ('en','a','We have updated your order, the tracking number is in your email.');
  create temporary table pq as select row_number() over () - 1 as n, body from phrases where kind = 'q';
  create temporary table pa as select row_number() over () - 1 as n, body from phrases where kind = 'a';
  create temporary table first_names as select row_number() over () - 1 as n, v from unnest(array[
   'Budi','Siti','Andi','Dewi','Rina','Agus','Putri','Joko','Wulan','Rizky','Indah','Fajar','Ayu','Bayu',
   'Citra','Dimas','Eka','Fitri','Gilang','Hana','Irfan','Kartika','Lestari','Made','Nur','Oki','Yusuf',
   'Maria','Kevin','Linda','Steven','Michelle','Ahmad','Bambang','Dian','Endang','Hendra','Ika','Krisna',
   'Lukman','Mega','Nina','Oktaviani','Ratna','Sri','Teguh','Umar','Vina']) v;
  -- Middle names and a longer list of family names: about 136,000 different full names, so a
  -- customer's full name matches a handful of tickets, as in a real shop (640 names gave 1,650).
  create temporary table middle_names as select row_number() over () - 1 as n, v from unnest(array[
   'Adi','Sari','Dwi','Tri','Nur','Putra','Putri','Eka','Maya','Indra','Wati','Ayu','Kusuma','Surya',
   'Dewi','Bagus','Rahma','Sinta','Arif','Yuli','Hadi','Ratna','Prima','Wahyu','Lina','Agung','Dian',
   'Ani','Budi','Cahya','Fauzi','Gita','Hari','Intan','Jaya','Kurnia','Laras','Mulya','Nanda','Oka','Rudy']) v;
  create temporary table last_names as select row_number() over () - 1 as n, v from unnest(array[
   'Santoso','Wijaya','Pratama','Saputra','Lestari','Hidayat','Kurniawan','Siregar','Nasution','Wibowo',
   'Halim','Tanoto','Gunawan','Setiawan','Permata','Susanto','Purba','Simanjuntak','Nugroho','Rahman',
   'Sihombing','Harahap','Lubis','Tambunan','Sitompul','Panjaitan','Hutapea','Ginting','Sembiring','Tarigan',
   'Manurung','Pardede','Situmorang','Sinaga','Effendi','Sutanto','Hartono','Salim','Tjandra','Gozali',
   'Wirawan','Hakim','Syahputra','Ramadhan','Firmansyah','Maulana','Hasibuan','Daulay','Batubara','Rangkuti',
   'Suryadi','Budiman','Iskandar','Wahyudi','Prasetyo','Utomo','Sugiarto','Handoko','Kusnadi']) v;
`);
}
