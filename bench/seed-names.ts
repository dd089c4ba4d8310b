/** Names the bench generator gives its data, for the benches that look them up. */
export const benchPassword = 'Bench1234!';
export const bigClientSlug = 'bench-big';
export const giantRoomName = 'Grosir Sentosa (100k)';

/**
 * A question customers asked only in the spring (Lebaran): the first message of every third
 * ticket older than 240 days holds it, and no newer ticket does. Its keyword is common (a
 * third of those tickets: about 114,000 at a million) yet absent from the newest two thirds, the
 * tail of a search that walks the newest tickets until it has a page of hits.
 */
export const seasonalQuestion = 'Masih ada promo Lebaran kak?';
export const seasonalKeyword = 'lebaran';

/**
 * A seeded customer, for a search by name or by phone: the full name and the phone number as
 * Indonesians write it (`0814-1548-5064` for the stored `+6281415485064`; the seed gives every
 * customer a `+628…` number) of the big client's (`$1`) newest ticket older than two days, since
 * newer tickets may be other benches' live-chat visitors.
 */
export const seededCustomerSql = `select customer_name as name,
    '0' || substr(customer_phone, 4, 3) || '-' || substr(customer_phone, 7, 4) || '-' || substr(customer_phone, 11) as phone
  from tickets where client_id = $1 and created_at < now() - interval '2 days' order by created_at desc limit 1`;
