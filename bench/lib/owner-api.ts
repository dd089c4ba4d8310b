import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PreparedConversation } from './inbound-sources';
import { inParallel, visitorNamePrefix } from './inbound-sources';

/** As bench/seed.ts makes them (importing the seed would run it). */
export const bigClientSlug = 'bench-big';
export const benchPassword = 'Bench1234!';

/**
 * A tag for one bench run, carried by every customer name the run makes. It starts with a
 * letter: the inbox reads a filter of digits alone as a phone number, so an all-digit tag
 * (one run in forty) would find none of the run's tickets by name.
 */
export function newRunTag(): string {
  return `r${randomBytes(4).toString('hex')}`;
}

/** One JSON call to the server; a non-2xx answer throws with its body. */
export async function json<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
  });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The big client's owner, signed in, and its live-chat widget. */
export async function ownerOfBigClient(baseUrl: string): Promise<{ token: string; widgetId: string }> {
  const owner = await json<{ accessToken: string }>(`${baseUrl}/api/identity/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email: `owner@${bigClientSlug}.test`, password: benchPassword }),
  });
  const widgets = await json<{ content: Array<{ id: string; domain: string }> }>(
    `${baseUrl}/api/livechat/widgets`,
    {
      token: owner.accessToken,
    },
  );
  const widget = widgets.content.find((each) => each.domain.includes(bigClientSlug));
  if (!widget) throw new Error(`no live-chat widget for ${bigClientSlug}`);
  return { token: owner.accessToken, widgetId: widget.id };
}

/**
 * Assigns each conversation's ticket to its agent (conversation c → agent c % agents) as the
 * owner does in the inbox (POST chatRoom/transfer). The run's tickets are found by the run
 * tag that every customer name of the run carries. Answers how long finding the tickets took.
 */
export async function assignConversations(
  baseUrl: string,
  ownerToken: string,
  runTag: string,
  conversations: PreparedConversation[],
  agentIds: string[],
  channel: 'LVC' | 'TLG' = 'LVC',
): Promise<{ findingMs: number }> {
  const started = performance.now();
  const ticketOf = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({
      customerInfo: runTag,
      mediaPlatform: channel,
      pageSize: '100',
      tab: 'all',
    });
    if (cursor) query.set('cursor', cursor);
    const page: { content: Array<{ id: number; customer: { name: string } }>; nextCursor: string | null } =
      await json(`${baseUrl}/api/csp/chatRoom?${query}`, { token: ownerToken });
    for (const ticket of page.content) ticketOf.set(ticket.customer.name, ticket.id);
    cursor = page.nextCursor;
  } while (cursor);
  const findingMs = performance.now() - started;
  await inParallel(conversations, 8, async ({ conversation, customerName }) => {
    const ticketId = ticketOf.get(customerName);
    if (!ticketId) throw new Error(`no ticket found for ${customerName}`);
    const transfer = () =>
      json(`${baseUrl}/api/csp/chatRoom/transfer`, {
        method: 'POST',
        token: ownerToken,
        body: JSON.stringify({ ticketId, assigneeId: agentIds[conversation % agentIds.length] }),
      });
    // A server far behind its load may time a transfer out; one more try, and say so.
    await transfer().catch((error: Error) => {
      console.error(`  transfer of ticket ${ticketId} failed once (${error.message}); trying again`);
      return transfer();
    });
  });
  return { findingMs };
}

/**
 * Deletes what a run's visitors made in the big client: their contacts, and with them (by
 * cascade) identities, rooms, messages, tickets and search rows; then their search tails.
 * Left in place, each realtime run put a thousand live-chat tickets on top of the seeded ones,
 * newest of all, and every filtered list after it walked past them (ten runs made the ticket
 * list twice as dear).
 * Answers how many rooms went.
 */
export async function removeRunConversations(databaseUrl: string, runTag: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const values = [bigClientSlug, `${visitorNamePrefix(runTag)}%`];
    const runContacts = `select id from contacts
      where client_id = (select id from clients where slug = $1) and name like $2`;
    await client.query('begin');
    const rooms = await client.query(
      `select count(*)::int as count from chat_rooms where contact_id in (${runContacts})`,
      values,
    );
    await client.query(`delete from contacts where id in (${runContacts})`, values);
    // Search tails (migration 0036) are keyed by ticket without a foreign key: left behind,
    // they turned quiet ten minutes later and the keeper folded them (to nothing) during a
    // later run, work that run did not make.
    await client.query(
      `delete from ticket_search_tails e
        where e.client_id = (select id from clients where slug = $1)
          and not exists (select 1 from tickets t where t.id = e.ticket_id)`,
      [bigClientSlug],
    );
    await client.query('commit');
    return rooms.rows[0].count as number;
  } finally {
    await client.end();
  }
}
