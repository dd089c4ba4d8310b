import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { messages } from '../../db/schema';
import { keywordQuery, messageMatches } from './ticket-query.repository';

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
 * The newest message of each ticket that matches the keyword, with a short snippet.
 * Picking the messages (messages_ticket_idx and the full-text match) comes first, so
 * ts_headline, the costly part, runs once per ticket of the page only.
 */
export async function findMessageHits(
  tx: Executor,
  clientId: string,
  ticketIds: number[],
  keyword: string,
): Promise<MessageHit[]> {
  if (ticketIds.length === 0) return [];
  const newestMatches = tx
    .selectDistinctOn([messages.ticketId], { id: messages.id })
    .from(messages)
    .where(and(inArray(messages.ticketId, ticketIds), messageMatches(clientId, keyword)))
    .orderBy(messages.ticketId, desc(messages.id));
  const snippet: SQL<string> = sql`replace(replace(ts_headline('simple',
      replace(replace(${messages.text}, '<', ${tagGuard.lt}), '&', ${tagGuard.amp}),
      ${keywordQuery(keyword)}, ${headlineOptions}), ${tagGuard.lt}, '<'), ${tagGuard.amp}, '&')`;
  return tx
    .select({ ticketId: messages.ticketId, id: messages.id, snippet, createdAt: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.clientId, clientId), inArray(messages.id, newestMatches)));
}
