/**
 * The demo visitor page: a small mock storefront, "Toko Demo", with the demo workspace's
 * live-chat widget embedded exactly as a customer's site would embed it. Its texts are
 * Indonesian, or English for a browser that asks for English first.
 */

const texts = {
  id: {
    lang: 'id',
    title: 'Toko Demo — Belanja kebutuhan harian',
    tagline: 'Belanja kebutuhan harian, dikirim ke seluruh Indonesia',
    hero: 'Ada pertanyaan soal produk atau pesanan?',
    heroText:
      'Klik tombol chat di pojok kanan bawah. Agen kami di kotak masuk akan membalas langsung di sini.',
    buy: 'Beli',
    note: 'Ini halaman demo. Masuk ke dasbor sebagai agent1@demo.test (kata sandi Demo1234!) untuk membalas.',
    missing: 'Live chat demo belum tersedia: jalankan server dengan SEED_DEMO=true.',
  },
  en: {
    lang: 'en',
    title: 'Toko Demo — Everyday shopping',
    tagline: 'Everyday shopping, delivered across Indonesia',
    hero: 'A question about a product or an order?',
    heroText:
      'Click the chat button in the bottom right corner. Our agents answer you right here from their inbox.',
    buy: 'Buy',
    note: 'This is a demo page. Sign in to the dashboard as agent1@demo.test (password Demo1234!) to reply.',
    missing: 'The demo live chat is not available: start the server with SEED_DEMO=true.',
  },
};

/** Products drawn as coloured tiles with their initials: no image files, no emoji fonts needed. */
const products = [
  { name: 'Kopi Gayo 250 g', price: 85_000, tint: '#f3e8dc', ink: '#7c4a1e' },
  { name: 'Batik Tulis Pekalongan', price: 325_000, tint: '#e7eefc', ink: '#1e40af' },
  { name: 'Sambal Bawang 200 ml', price: 32_000, tint: '#fde8e8', ink: '#b91c1c' },
  { name: 'Teh Melati 50 kantong', price: 27_500, tint: '#e6f6ea', ink: '#15803d' },
  { name: 'Keripik Singkong Balado', price: 18_000, tint: '#fff4db', ink: '#b45309' },
  { name: 'Tas Anyaman Rotan', price: 149_000, tint: '#f1ecfb', ink: '#6d28d9' },
];

const initialsOf = (name: string) =>
  name
    .split(' ')
    .slice(0, 2)
    .map((word) => word.charAt(0))
    .join('');

const rupiah = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  maximumFractionDigits: 0,
});

/** The language of the page: English when the browser lists English before Indonesian. */
export function demoLanguageOf(acceptLanguage: string | undefined): 'id' | 'en' {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'id';
}

const styles = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#fafafa;color:#212529}
header{background:#fff;border-bottom:1px solid #e9ecef;padding:16px 24px;display:flex;align-items:baseline;gap:16px;flex-wrap:wrap}
header b{font-size:22px;color:#2563eb}header span{color:#868e96}
main{max-width:1040px;margin:0 auto;padding:24px}
.hero{background:linear-gradient(120deg,#2563eb,#7c3aed);color:#fff;border-radius:16px;padding:28px;margin-bottom:24px}
.hero h1{margin:0 0 8px;font-size:26px}.hero p{margin:0;opacity:.9}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:16px}
.card{background:#fff;border-radius:12px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.pic{height:140px;display:flex;align-items:center;justify-content:center;font-size:44px;font-weight:800;letter-spacing:2px}
.info{padding:12px 14px}.info h2{font-size:15px;margin:0 0 6px}.price{color:#e8590c;font-weight:700}
.info button{margin-top:10px;width:100%;padding:8px;border:1px solid #2563eb;background:#fff;color:#2563eb;border-radius:8px;font-weight:600;cursor:pointer}
.note{margin-top:24px;color:#868e96;font-size:13px}
`;

/** The page's HTML; the widget id is a UUID of ours, nothing else in it comes from outside. */
export function demoVisitorPage(language: 'id' | 'en', widgetId: string | null): string {
  const text = texts[language];
  const cards = products
    .map(
      (
        product,
      ) => `<div class="card"><div class="pic" style="background:${product.tint};color:${product.ink}">${initialsOf(product.name)}</div>
<div class="info"><h2>${product.name}</h2><div class="price">${rupiah.format(product.price)}</div><button type="button">${text.buy}</button></div></div>`,
    )
    .join('\n');
  const widget = widgetId
    ? `<script src="/widget.js" data-widget-id="${widgetId}" async></script>`
    : `<p class="note">${text.missing}</p>`;
  return `<!doctype html>
<html lang="${text.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>${text.title}</title>
<style>${styles}</style>
</head>
<body>
<header><b>Toko Demo</b><span>${text.tagline}</span></header>
<main>
<section class="hero"><h1>${text.hero}</h1><p>${text.heroText}</p></section>
<section class="grid">
${cards}
</section>
<p class="note">${text.note}</p>
</main>
${widget}
</body>
</html>`;
}
