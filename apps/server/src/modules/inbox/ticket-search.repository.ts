import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { messages, tickets } from '../../db/schema';
import { keywordQuery } from './ticket-keyword';
import { ofTicketMessages, ticketBound } from './ticket-messages';

/** Where a snippet's hit starts and ends: plain text the screen splits on, never HTML. */
export const snippetMarkers = { start: '[[', stop: ']]' } as const;

const headlineOptions = `StartSel="${snippetMarkers.start}", StopSel="${snippetMarkers.stop}", MaxWords=20, MinWords=8, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * The text search parser reads `<b>` or `&amp;` in a message as markup and ts_headline
 * drops it. A zero-width space after every `<` and `&` keeps the message's own characters
 * in the snippet; it is taken out again afterwards, so the snippet is the message's text.
 */
const tagGuard = { lt: '<\u200B', amp: '&\u200B' } as const;

export interface MessageHit {
  ticketId: number;
  id: number;
  snippet: string;
  createdAt: Date;
}

/**
 * Words that every message matching the keyword holds as they are, lowercase: when the
 * keyword is nothing but plain ASCII words (no quotes, no `-`, no `or`, which websearch reads
 * as operators), each of its words is a lexeme of a matching message as written, so it is in
 * the message's lowercased text. Otherwise none. Finding them with `strpos` first spares
 * `to_tsvector` on most of the messages read for the snippets: it halved that statement.
 */
export function wordsEveryMatchHolds(keyword: string): string[] {
  const words = keyword.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.some((word) => !/^[a-z0-9]+$/.test(word) || word === 'or')) return [];
  return words;
}

/** How far back a ticket's messages are read for its snippet (its newest ones). */
export const snippetWindow = 1000;

/**
 * The newest message of each ticket that matches the keyword, with a short snippet. Each
 * ticket's messages are read newest first over its room's index and the read stops at the
 * first match (or after `snippetWindow` messages: a hit older than that shows no snippet),
 * so a ticket with thousands of messages costs no more than a short one. ts_headline runs
 * once per ticket of the page only; a message without the keyword's words is passed over
 * before it is parsed (`wordsEveryMatchHolds`).
 */
export async function findMessageHits(
  tx: Executor,
  clientId: string,
  ticketIds: number[],
  keyword: string,
): Promise<MessageHit[]> {
  if (ticketIds.length === 0) return [];
  const guarded = sql`replace(replace(hit.text, '<', ${tagGuard.lt}), '&', ${tagGuard.amp})`;
  const held = wordsEveryMatchHolds(keyword).map((word) => sql`strpos(lower(recent.text), ${word}) > 0 and `);
  const result = (await tx.execute(sql`
    select hit.ticket_id, hit.id, hit.created_at,
           replace(replace(ts_headline('simple', ${guarded}, ${keywordQuery(keyword)}, ${headlineOptions}),
             ${tagGuard.lt}, '<'), ${tagGuard.amp}, '&') as snippet
      from unnest(${`{${ticketIds.join(',')}}`}::bigint[]) as page(ticket_id)
      join ${tickets} on ${tickets.id} = page.ticket_id and ${tickets.clientId} = ${clientId}
      cross join lateral ${ticketBound}
      cross join lateral (
        select recent.id, recent.ticket_id, recent.text, recent.created_at
          from (select ${messages.id}, ${messages.ticketId}, ${messages.text}, ${messages.createdAt}
                  from ${messages}
                 where ${ofTicketMessages(clientId)}
                 order by ${messages.id} desc
                 limit ${snippetWindow}) recent
         where ${sql.join(held)}to_tsvector('simple', recent.text) @@ ${keywordQuery(keyword)}
         order by recent.id desc
         limit 1) hit`)) as unknown as {
    rows: Array<{
      ticket_id: string | number;
      id: string | number;
      created_at: string | Date;
      snippet: string;
    }>;
  };
  return result.rows.map((row) => ({
    ticketId: Number(row.ticket_id),
    id: Number(row.id),
    snippet: row.snippet,
    createdAt: new Date(row.created_at),
  }));
}
