// The server time of writing a list page's statement, apart from everything else (issue 13,
// "Inbox at scale"): the ticket list's and the inbox's pages, built and rendered by the same
// code as the server's (ticket-query.repository.ts), without a database. No statement is
// run: the executor only renders what it is given.
//
//   npm run bench:render -- [--pages 20000] [--rounds 5]

import type { TicketStatus } from '@app/contracts';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { InboxScope } from '../apps/server/src/modules/inbox/inbox.policy';
import {
  findTicketPageJson,
  type TicketFilter,
  type TicketPageRequest,
} from '../apps/server/src/modules/inbox/ticket-query.repository';
import { parseFlags } from './lib/bench-db';

const flags = parseFlags(process.argv.slice(2));
const pages = Number(flags.pages ?? 20000);
const rounds = Number(flags.rounds ?? 5);

const dialect = new PgDialect();
let characters = 0;
const renderOnly = {
  execute: async (statement: SQL) => {
    const query = dialect.sqlToQuery(statement);
    characters += query.sql.length;
    return { rows: [] };
  },
} as never;

// An owner (sees every chat) and an agent (the queue and their own), as the inbox bench asks.
const owner: InboxScope = {
  clientId: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  seesAll: true,
  seesQueue: true,
  canReply: true,
  canBeAssigned: true,
  canManage: true,
};
const agent: InboxScope = {
  ...owner,
  userId: '00000000-0000-4000-8000-000000000003',
  seesAll: false,
  canManage: false,
};
const everyStatus: TicketStatus[] = ['UNASSIGNED', 'ASSIGNED', 'CLOSED', 'RESOLVED'];
const open: TicketStatus[] = ['UNASSIGNED', 'ASSIGNED'];
const day = 86_400_000;
const table: TicketFilter[] = [
  { status: ['UNASSIGNED', 'ASSIGNED'] },
  { status: ['RESOLVED'] },
  { status: ['CLOSED'], mediaPlatform: ['SHP', 'TPD', 'LZD'] },
  { mediaPlatform: ['WAP'] },
  { tags: ['vip'] },
  { tags: ['retur', 'grosir'], priority: [3] },
  { priority: [1] },
  {
    createdFrom: new Date(Date.now() - 30 * day).toISOString(),
    createdTo: new Date(Date.now() - 20 * day).toISOString(),
  },
  { status: ['RESOLVED'], createdFrom: new Date(Date.now() - 7 * day).toISOString() },
  { tab: 'unassigned' },
  { status: ['EXPIRED'] },
];
const requests: TicketPageRequest[] = [
  ...table.map(
    (filter): TicketPageRequest => ({
      scope: owner,
      filter,
      defaultStatuses: everyStatus,
      sort: 'createdAt',
      after: null,
      limit: 51,
      withCounters: true,
    }),
  ),
  ...([{}, { tab: 'unassigned' }, { tab: 'mine' }] as TicketFilter[]).flatMap((filter) =>
    [owner, agent].map(
      (scope): TicketPageRequest => ({
        scope,
        filter,
        defaultStatuses: open,
        sort: 'lastMessageAt',
        after: null,
        limit: 51,
        withCounters: true,
      }),
    ),
  ),
];

console.log(`render bench: ${requests.length} page shapes, ${pages} pages a round; node ${process.version}`);
const perRound: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const started = process.hrtime.bigint();
  for (let page = 0; page < pages; page += 1)
    await findTicketPageJson(renderOnly, requests[page % requests.length]);
  perRound.push(Number(process.hrtime.bigint() - started) / 1000 / pages);
}
const sorted = [...perRound].sort((a, b) => a - b);
console.log(
  `  built and rendered: ${perRound.map((us) => us.toFixed(1)).join(', ')} µs a page by round; ` +
    `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} µs (${Math.round(characters / (pages * rounds))} characters a page)`,
);
