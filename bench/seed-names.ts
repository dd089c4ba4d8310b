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
