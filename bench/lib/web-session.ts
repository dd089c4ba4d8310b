// What the web bench's measurements share (bench:web): how long a page may take, the dataset
// they read (the big client's tickets and the open ticket of its 100,000-message room), and a
// Chromium context signed in as the big client's owner.
import pg from 'pg';
import type { Browser, BrowserContext } from 'playwright-core';
import { storageKeys } from '../../apps/web/src/shared/storage-keys';

/** A page load (goto, load states) gives up after this; the run goes on or ends, never hangs. */
export const pageLoadTimeoutMs = 10_000;
/** A wait for data on screen (the first rows of 1M tickets may be slow); failing it fails the part. */
export const dataTimeoutMs = 60_000;

const owner = { email: 'owner@bench-big.test', password: 'Bench1234!' };

export interface WebDataset {
  tickets: number;
  chatTicketId: number;
  roomMessages: number;
}

/** What the big client holds, and the open ticket of its 100,000-message room (read-only SQL). */
export async function readDataset(databaseUrl: string): Promise<WebDataset> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tickets = await client.query<{ count: string }>(
      `select count(*) from tickets t join clients c on c.id = t.client_id where c.slug = 'bench-big'`,
    );
    const room = await client.query<{ id: string; room_id: string }>(
      `select t.id, t.room_id from tickets t
         join chat_rooms r on r.id = t.room_id
         join clients c on c.id = t.client_id
        where c.slug = 'bench-big' and r.name = 'Grosir Sentosa (100k)' and t.status in ('UNASSIGNED', 'ASSIGNED')
        order by t.id desc limit 1`,
    );
    if (!room.rows[0]) throw new Error("no open ticket in the room 'Grosir Sentosa (100k)' of bench-big");
    const messages = await client.query<{ count: string }>(
      'select count(*) from messages where room_id = $1',
      [room.rows[0].room_id],
    );
    return {
      tickets: Number(tickets.rows[0].count),
      chatTicketId: Number(room.rows[0].id),
      roomMessages: Number(messages.rows[0].count),
    };
  } finally {
    await client.end();
  }
}

/** A context whose pages start signed in as the owner, as after a reload; nothing cached. */
export async function signedInContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const response = await fetch(`${baseUrl}/api/identity/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  if (!response.ok)
    throw new Error(`sign-in as ${owner.email} failed: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as { accessToken: string; refreshToken: string };
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1366, height: 768 },
    locale: 'id-ID',
    timezoneId: 'Asia/Jakarta',
  });
  // tsx names functions with esbuild's __name helper, which functions run in the page lack.
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  await context.addInitScript(
    ({ keys, pair }) => {
      if (!localStorage.getItem(keys.accessToken)) {
        localStorage.setItem(keys.accessToken, pair.accessToken);
        localStorage.setItem(keys.refreshToken, pair.refreshToken);
      }
    },
    { keys: storageKeys, pair: tokens },
  );
  return context;
}
