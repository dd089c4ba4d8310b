/** Names the bench generator gives its data, for the benches that look them up. */
export const benchPassword = 'Bench1234!';
export const bigClientSlug = 'bench-big';
export const giantRoomName = 'Grosir Sentosa (100k)';
