// The inbox bench's dataset and targets (bench:inbox). The dataset: the seeded big client and
// its giant room, read from the database, with the check that the server would not migrate it
// on start. The targets: what each line asks for, found through the API as the owner and the
// agents find it (read-only SQL where the API could not give it): inbox tabs, keyset cursors,
// months-old rooms, search keywords, the bare server's rows and the agents' chats to send into.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TicketListResponse, TicketSummary } from '@app/contracts';
import pg from 'pg';
import { benchPassword, bigClientSlug, giantRoomName, seededCustomerSql } from '../seed-names';
import { isoDaysAgo, searchWords } from './list-filters';
import type { LoadTarget } from './load';
import { repoRoot } from './processes';
import { maskedUrl } from './report';

/** Read-only SQL: the header's facts, the giant room, and ids the API could not give. */
export interface ReadOnlySql {
  rows<T>(text: string, values?: unknown[]): Promise<T[]>;
  one<T>(text: string, values?: unknown[]): Promise<T>;
  end(): Promise<void>;
}

/** One connection to the bench database for the bench's own reads. */
export async function connectReadOnly(databaseUrl: string): Promise<ReadOnlySql> {
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  const rows = async <T>(text: string, values?: unknown[]) => (await sql.query(text, values)).rows as T[];
  const one = async <T>(text: string, values?: unknown[]) => (await rows<T>(text, values))[0];
  return { rows, one, end: () => sql.end() };
}

export interface InboxDataset {
  bigClient: { id: string };
  facts: { size: string; version: string; tickets: string; messages: string };
  giant: { id: string; ticketId: number };
}

/**
 * The big client, the header's facts and the giant room. A database that lacks a migration is
 * refused unless `allowMigrate`: the server would apply it on start.
 */
export async function readInboxDataset(
  sql: ReadOnlySql,
  databaseUrl: string,
  allowMigrate: boolean,
): Promise<InboxDataset> {
  const { one } = sql;
  const bigClient = await one<{ id: string } | undefined>('select id from clients where slug = $1', [
    bigClientSlug,
  ]);
  if (!bigClient)
    throw new Error(`no client "${bigClientSlug}" in ${maskedUrl(databaseUrl)}: run bench:seed first`);
  const facts = await one<{ size: string; version: string; tickets: string; messages: string }>(
    `select pg_size_pretty(pg_database_size(current_database())) as size, current_setting('server_version') as version,
          (select count(*) from tickets where client_id = $1) as tickets,
          (select count(*) from messages where client_id = $1) as messages`,
    [bigClient.id],
  );
  const giant = await one<{ id: string; ticketId: number } | undefined>(
    `select id, current_ticket_id as "ticketId" from chat_rooms where client_id = $1 and name = $2`,
    [bigClient.id, giantRoomName],
  );
  if (!giant?.ticketId) throw new Error(`the room "${giantRoomName}" has no current ticket`);

  // The server migrates on start. On a shared million-ticket database a new migration can run for
  // many minutes, so it is applied on purpose beforehand, not by a bench run in passing.
  const journal = JSON.parse(
    readFileSync(path.join(repoRoot, 'apps/server/src/db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string; when: number }> };
  const applied = await one<{ last: string | null }>(
    'select max(created_at)::text as last from drizzle.__drizzle_migrations',
  );
  const pending = journal.entries.filter((entry) => entry.when > Number(applied.last ?? 0));
  if (pending.length > 0 && !allowMigrate) {
    await sql.end();
    throw new Error(
      `${maskedUrl(databaseUrl)} lacks ${pending.map((entry) => entry.tag).join(', ')}: the server would apply ` +
        'it on start. Migrate the bench database first, or pass --allow-migrate.',
    );
  }
  return { bigClient, facts, giant };
}

/** A target sent with the token of the user it belongs to. */
export const as = (token: string, target: Omit<LoadTarget, 'headers'>): LoadTarget => ({
  ...target,
  headers: { authorization: `Bearer ${token}` },
});

/** Every line's targets, and the owner's token for the lines the bench makes itself. */
export interface InboxTargets {
  owner: string;
  agents: Array<{ email: string; token: string; ticketIds: number[] }>;
  inboxTargets: LoadTarget[];
  cursorTargets: LoadTarget[];
  cursorProbes: LoadTarget[];
  oldRooms: Set<string>;
  keywords: string[];
  searchTargets: LoadTarget[];
  bareSelectTargets: LoadTarget[];
  bareInsertTargets: LoadTarget[];
  /** 50 tickets' stored JSON of one status, newest first (bare-server.ts). */
  barePageTargets: LoadTarget[];
  /** The newest 50 messages of the giant room (bare-server.ts). */
  bareRoomTargets: LoadTarget[];
  sendTargets: LoadTarget[];
}

/** Signs in as the owner and the agents on `api` and finds every line's targets. */
export async function discoverTargets(
  api: string,
  sql: ReadOnlySql,
  { bigClient, giant }: InboxDataset,
): Promise<InboxTargets> {
  const { rows, one } = sql;
  const signIn = async (email: string): Promise<string> => {
    const response = await fetch(`${api}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: benchPassword }),
    });
    const body = (await response.json()) as { accessToken?: string };
    if (!response.ok || !body.accessToken) {
      throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body)}`);
    }
    return body.accessToken;
  };
  /** A discovery read; a failure is printed (it is a bug the figures will show too) and gives null. */
  const tryGet = async <T>(token: string, target: string): Promise<T | null> => {
    const response = await fetch(`${api}${target}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.ok) return (await response.json()) as T;
    const text = (await response.text()).slice(0, 160);
    console.log(`  ! discovery: GET ${target.slice(0, 90)} answered ${response.status} ${text}`);
    return null;
  };
  const owner = await signIn(`owner@${bigClientSlug}.test`);

  // Agents with open chats of their own that still take a public reply, found through their inbox.
  // Enough chats that 16 senders seldom wait for one ticket's lock.
  const agents: Array<{ email: string; token: string; ticketIds: number[] }> = [];
  const chatCount = () => agents.reduce((sum, sender) => sum + sender.ticketIds.length, 0);
  for (let n = 1; n <= 200 && agents.length < 24 && chatCount() < 48; n += 1) {
    const email = `agent${n}@${bigClientSlug}.test`;
    const token = await signIn(email);
    const mine = await tryGet<TicketListResponse>(token, '/api/csp/chatRoom?tab=mine&pageSize=100');
    const ticketIds = mine
      ? mine.content.filter((ticket) => ticket.status === 'ASSIGNED' && !ticket.expired).map(({ id }) => id)
      : (
          await rows<{ id: number }>(
            `select t.id from tickets t join users u on u.id = t.assignee_id
              where t.client_id = $1 and u.email = $2 and t.status = 'ASSIGNED'
                and (t.expires_at is null or t.expires_at > now() + interval '1 hour')
              order by t.last_message_at desc limit 6`,
            [bigClient.id, email],
          )
        ).map(({ id }) => Number(id));
    if (ticketIds.length > 0) agents.push({ email, token, ticketIds: ticketIds.slice(0, 6) });
  }
  if (agents.length === 0) throw new Error('no agent has an open, unexpired chat to send into');
  const agent = agents[0];
  const inboxTargets = [
    as(agent.token, { path: '/api/csp/chatRoom?tab=all&pageSize=50' }),
    as(agent.token, { path: '/api/csp/chatRoom?tab=unassigned&pageSize=50' }),
    as(agent.token, { path: '/api/csp/chatRoom?tab=mine&pageSize=50' }),
    as(owner, { path: '/api/csp/chatRoom?tab=all&pageSize=50' }),
    as(owner, { path: '/api/csp/chatRoom?tab=all&mediaPlatform=WAP,IGM&pageSize=50' }),
  ];

  // Later pages: walk a few filters page by page and keep the cursors of pages 2..40.
  const seenTickets = new Map<number, TicketSummary>();
  const cursorTargets: LoadTarget[] = [];
  const cursorProbes: LoadTarget[] = [];
  for (const first of [
    '/api/ticket/ticket/list?status=RESOLVED&pageSize=50',
    '/api/ticket/ticket/list?mediaPlatform=WAP,IGM&pageSize=50',
    '/api/csp/chatRoom?tab=all&pageSize=50',
  ]) {
    let cursor: string | null = null;
    const walked: LoadTarget[] = [];
    for (let page = 1; page <= 40; page += 1) {
      const target: string = cursor ? `${first}&cursor=${cursor}` : first;
      const body: TicketListResponse | null = await tryGet<TicketListResponse>(owner, target);
      if (!body) break;
      for (const ticket of body.content) seenTickets.set(ticket.id, ticket);
      if (page > 1) walked.push(as(owner, { path: target }));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    cursorTargets.push(...walked);
    if (walked.length > 0) cursorProbes.push(walked[0], walked.at(-1)!);
  }

  // Rooms whose newest messages are months old: their ids sit mid-table, far from the newest.
  const [from, to] = [isoDaysAgo(200), isoDaysAgo(150)];
  const monthsAgo = await tryGet<TicketListResponse>(
    owner,
    `/api/ticket/ticket/list?createdFrom=${from}&createdTo=${to}&pageSize=20`,
  );
  const oldRooms = new Set(
    monthsAgo
      ? monthsAgo.content.map((ticket) => ticket.roomId)
      : (
          await rows<{ roomId: string }>(
            `select room_id as "roomId" from tickets
              where client_id = $1 and created_at between $2 and $3 order by created_at desc limit 20`,
            [bigClient.id, from, to],
          )
        ).map(({ roomId }) => roomId),
  );

  // Keywords: common, medium and rare, from the seed's phrases and from tickets seen above.
  const invoice =
    [...seenTickets.values()]
      .map((ticket) => /INV\/2026\/\d{5}/.exec(ticket.subject ?? '')?.[0])
      .find(Boolean) ??
    (
      await one<{ invoice: string }>(
        `select substring(subject from 'INV/2026/[0-9]{5}') as invoice from tickets
          where client_id = $1 and subject like 'Pesanan INV/2026/%' order by id desc limit 1`,
        [bigClient.id],
      )
    ).invoice;
  const customerName =
    seenTickets.values().next().value?.customer.name ??
    (await one<{ name: string }>(seededCustomerSql, [bigClient.id])).name;
  const keywords = [...searchWords, invoice, customerName];
  const searchTargets = keywords.map((keyword) =>
    as(owner, { path: `/api/ticket/search?keyword=${encodeURIComponent(keyword)}&pageSize=50` }),
  );

  const bareIds =
    seenTickets.size >= 50
      ? [...seenTickets.keys()].slice(0, 200)
      : (
          await rows<{ id: number }>(
            'select id from tickets tablesample system (1) where client_id = $1 limit 200',
            [bigClient.id],
          )
        ).map(({ id }) => Number(id));
  const bareSelectTargets = bareIds.map((id): LoadTarget => ({ path: `/bare/select?id=${id}` }));
  const bareInsertTargets: LoadTarget[] = [
    {
      method: 'POST',
      path: '/bare/insert',
      body: { clientId: bigClient.id, roomId: giant.id, text: 'Baik kak, pesanan sedang kami proses.' },
    },
  ];
  const barePageTargets = ['RESOLVED', 'CLOSED', 'ASSIGNED', 'UNASSIGNED'].map(
    (status): LoadTarget => ({ path: `/bare/page?clientId=${bigClient.id}&status=${status}` }),
  );
  const bareRoomTargets: LoadTarget[] = [{ path: `/bare/room?roomId=${giant.id}` }];
  const sendTargets = agents.flatMap((sender) =>
    sender.ticketIds.map((ticketId) =>
      as(sender.token, {
        method: 'POST',
        path: '/api/csp/chat/secure',
        body: {
          ticketId,
          clientMessageId: `bench-{{unique}}`,
          kind: 'PublicMessage',
          text: 'Baik kak, pesanan sedang kami proses dan segera dikirim hari ini.',
        },
      }),
    ),
  );
  return {
    owner,
    agents,
    inboxTargets,
    cursorTargets,
    cursorProbes,
    oldRooms,
    keywords,
    searchTargets,
    bareSelectTargets,
    bareInsertTargets,
    barePageTargets,
    bareRoomTargets,
    sendTargets,
  };
}
