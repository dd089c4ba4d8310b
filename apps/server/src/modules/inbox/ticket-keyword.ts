import { type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { messages, ticketSearch, tickets } from '../../db/schema';
import { withTenant } from '../../db/tenant';
import { runAtCommit } from '../../db/tenant-connections';
import { ofTicketMessages, ticketBound } from './ticket-messages';

/**
 * The keyword filter of the ticket list and search: a customer name or phone number
 * containing it, or words of the ticket's messages matching it, and how a page finds them
 * (a list of ids from the indexes, or a test on each ticket of the page's own walk).
 */

/** Escapes LIKE wildcards so the user's text matches literally, then wraps it for a substring match. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');
const looksLikePhone = (text: string) => /^\+?[\d\s().-]+$/.test(text) && digitsOf(text).length >= 3;

/**
 * The LIKE pattern of a phone number as typed, or null when the text is none: its digits
 * without the leading zeros, so that `0812-3456-7890`, as numbers are written in Indonesia,
 * finds `+6281234567890` as stored (and `0062…` the same).
 */
export function phonePatternOf(text: string): string | null {
  if (!looksLikePhone(text)) return null;
  const digits = digitsOf(text).replace(/^0+/, '');
  return digits.length >= 3 ? containsPattern(digits) : null;
}

/** The full-text query of a keyword, the configuration of ticket_search.words. */
export const keywordQuery = (keyword: string): SQL => sql`websearch_to_tsquery('simple', ${keyword})`;

/** Messages of the client that match the keyword (read per ticket, for the snippets). */
export const messageMatches = (clientId: string, keyword: string): SQL =>
  sql`${messages.clientId} = ${clientId} and to_tsvector('simple', ${messages.text}) @@ ${keywordQuery(keyword)}`;

/**
 * Adds the words of the client's messages still waiting (migration 0030: a worker adds them a
 * few times a second) to its search parts, in a short write transaction of its own, so that a
 * keyword read that follows finds every message stored before it. Reads run read-only. The
 * call travels with the transaction's begin and commit (`runAtCommit`): one round trip, where
 * running it first and committing after took two, on every search.
 */
export async function catchUpSearchWords(db: Database, clientId: string): Promise<void> {
  await withTenant(db, clientId, (tx) => runAtCommit(tx, sql`select ticket_search_catch_up(${clientId})`));
}

/** A condition no ticket meets: the page is empty without asking the database. */
export const nothingMatches = sql`false`;

/**
 * Past this many matching tickets a keyword is not read as a list of ids: fetching and sorting
 * every match costs more than walking the page's index and testing each ticket's words, when
 * the newest tickets hold a page of hits (common). When they do not (thin), a page newest
 * created first reads the matches a day at a time instead. Below it the matches come straight
 * from the indexes.
 */
export const keywordIdCap = 5000;

/**
 * A keyword with at least this many matches (under the cap) is also tried for density: when
 * the client's newest `densityWindow` tickets already hold a page of hits, it counts as common
 * too. In a small client a word in a third of its tickets stays under the cap, and gathering
 * its thousands of ids on every search cost more than walking to the 50th hit (at 10k tickets,
 * 4.7 ms for the 3,148 ids of `voucher` against under a millisecond of walk). One that is thin
 * is read by day on a page newest created first, rather than as its thousand ids.
 */
export const keywordDenseFrom = 1000;
const densityWindow = 500;

/** How many verdicts the process remembers, and for how long. */
const verdictsKept = 1000;
const verdictMs = 10 * 60_000;

/**
 * What a keyword with many matches (past the cap, or `keywordDenseFrom` under it) was found
 * to be for a client:
 * - `common`: the client's newest tickets hold a page of hits, so the page walks them;
 * - `thin`: they do not (a word of last spring, or one spread thin), so a page newest created
 *   first reads its matches a day at a time, and any other page takes its ids under the cap
 *   and walks past it.
 */
export type KeywordVerdict = 'common' | 'thin';

/** What a keyword was lately found to be, by client, cap and keyword, and when. */
const verdicts = new Map<string, { verdict: KeywordVerdict; at: number }>();
const verdictKey = (clientId: string, keyword: string, cap: number) =>
  `${clientId}\u0000${cap}\u0000${keyword}`;

/**
 * What the keyword was lately found to be for the client, or nothing known. Matches only grow
 * as messages arrive, so a verdict holds; should it not (messages removed) the page is still
 * right, only slower. Remembering it spares the count that reads the cap's worth of matches:
 * 7–19 ms of PostgreSQL's time for each search of a common word at a million tickets.
 */
export function knownKeywordVerdict(
  clientId: string,
  keyword: string,
  cap: number,
): KeywordVerdict | undefined {
  const key = verdictKey(clientId, keyword, cap);
  const known = verdicts.get(key);
  if (!known) return undefined;
  if (Date.now() - known.at > verdictMs) {
    verdicts.delete(key);
    return undefined;
  }
  return known.verdict;
}

function remember(clientId: string, keyword: string, cap: number, verdict: KeywordVerdict): void {
  const key = verdictKey(clientId, keyword, cap);
  verdicts.delete(key);
  verdicts.set(key, { verdict, at: Date.now() });
  if (verdicts.size > verdictsKept) verdicts.delete(verdicts.keys().next().value as string);
}

/** How a page looks for the keyword: the caps, and how many hits make a page (for the density test). */
export interface KeywordPlan {
  cap: number;
  denseFrom: number;
  pageRows: number;
  /**
   * The page shows every ticket of its creation range that matches (no other filter, and a
   * caller who reads every ticket): a day of many matches may then give only the page's newest
   * (migration 0044). Where other filters drop matches, such a read came out short and widened
   * over the same day two or three times, so those pages take the whole day.
   */
  exact: boolean;
}

/**
 * The days a page newest created first may hold: from `newest` (a timestamptz expression:
 * the cursor's position or the filter's end; null for the client's newest ticket) down to
 * `oldest` (the filter's start; null for the client's first ticket).
 */
export interface CreatedRange {
  newest: SQL;
  oldest: string | null;
}

/** The keyword's condition on the page; `wider`, when set, gives it over more days for a page that came out short. */
export interface KeywordMatch {
  condition: SQL;
  wider?: () => Promise<KeywordMatch>;
}

/** How many times the last read's matches each wider read asks for. */
const widerBy = 4;

/**
 * The keyword's condition (ticket_search parts, migrations 0013 and 0018; the caller has
 * brought them up to date first, `catchUpSearchWords`).
 * inbox_keyword_ticket_ids reads the GIN and trigram indexes that row-level security keeps
 * the planner from using, for the transaction's own client, and gives up past the cap:
 * a rare keyword becomes a list of ids, a common one a test made on each ticket of the walk,
 * and a thin one, on a page newest created first (`created`), the ids of the days it
 * needs (inbox_keyword_dated_ticket_ids, migration 0024).
 */
export async function keywordCondition(
  tx: Executor,
  clientId: string,
  keyword: string,
  plan: KeywordPlan,
  created: CreatedRange | null,
): Promise<KeywordMatch> {
  const { cap } = plan;
  const namePattern = containsPattern(keyword);
  // Phone numbers only for a keyword that is one: the digits of `INV/2026/80076` or of
  // `pesanan 123` are no phone number, and matched every number that held them.
  const phonePattern = phonePatternOf(keyword);
  const phone = phonePattern ? sql` or ${tickets.customerPhone} like ${phonePattern}` : sql``;
  const customer = sql`lower(${tickets.customerName}) like ${namePattern}${phone}`;
  // The words carry no positions: a "quoted phrase" is looked up as its words, then
  // confirmed on the messages themselves.
  const wordsOnly = keyword.replaceAll('"', ' ');
  const quoted = keyword.includes('"');
  const phrase = quoted
    ? sql` and exists (select 1 from ${ticketBound}, ${messages} where ${ofTicketMessages(clientId)} and ${messageMatches(clientId, keyword)})`
    : sql``;
  // A scalar subquery (the first of the ticket's parts that matches), so that it is tested on
  // each ticket of the walk: as EXISTS inside an OR the planner may hash every ticket's words first.
  const matchesWords = sql`coalesce((select true from ${ticketSearch} where ${ticketSearch.ticketId} = ${tickets.id} and ${ticketSearch.words} @@ ${keywordQuery(wordsOnly)} limit 1), false)`;
  const matches = sql`((${matchesWords}${phrase}) or ${customer})`;
  const walk: KeywordMatch = { condition: matches };
  // A phrase is confirmed on the messages after its words are found: some matches drop out.
  const exact = plan.exact && !quoted;
  // The ids are the keyword's matches as they are; only a phrase is then confirmed on the messages.
  const confirmed = (candidates: SQL) => (quoted ? sql`(${candidates} and ${matches})` : candidates);

  // `earlier`: the ids a previous read found from the range's newest day down to where it stopped.
  const byDay = async (
    range: CreatedRange,
    enough: number,
    earlier: number[] = [],
  ): Promise<KeywordMatch> => {
    const result = (await tx.execute(
      sql`select ticket_ids, read_from::text as read_from
            from inbox_keyword_dated_ticket_ids(${clientId}, ${wordsOnly}, ${namePattern}, ${phonePattern}, ${cap},
                                                ${range.newest}, ${range.oldest}::timestamptz, ${enough}, ${exact})`,
    )) as unknown as { rows: Array<{ ticket_ids: Array<string | number>; read_from: string | null }> };
    const found = result.rows[0];
    if (!found) return walk;
    const ids = distinctIds([...earlier, ...found.ticket_ids]);
    if (found.read_from === null) {
      return { condition: ids.length === 0 ? nothingMatches : confirmed(idsCondition(ids)) };
    }
    // Every match created from read_from on (within the range) is among the ids. read_from is
    // the last day's start, or, on a day of many matches, the instant of the last one the page
    // needs (migration 0044). A wider read goes on from just before it, for more matches.
    const before = sql`${found.read_from}::timestamptz - interval '1 microsecond'`;
    return {
      condition: confirmed(
        sql`(${idsCondition(ids)} and ${tickets.createdAt} >= ${found.read_from}::timestamptz)`,
      ),
      wider: () => byDay({ newest: before, oldest: range.oldest }, enough * widerBy, ids),
    };
  };
  const verdict = knownKeywordVerdict(clientId, keyword, cap);
  if (verdict === 'common') return walk;
  if (verdict === 'thin' && created) return byDay(created, plan.pageRows);
  // Past the cap null comes back, not the cap's worth of ids.
  const result = (await tx.execute(
    sql`select case when count(*) > ${cap} then null else coalesce(array_agg(id), '{}') end as ids
          from inbox_keyword_ticket_ids(${clientId}, ${wordsOnly}, ${namePattern}, ${phonePattern}, ${cap}) as id`,
  )) as unknown as { rows: Array<{ ids: Array<string | number> | null }> };
  const found = result.rows[0]?.ids ?? null;
  const ids = found === null ? null : distinctIds(found);
  if (ids?.length === 0) return { condition: nothingMatches };
  if (verdict === undefined && (ids === null || ids.length >= plan.denseFrom)) {
    const dense = await fillsNewestPage(tx, clientId, matches, plan.pageRows);
    remember(clientId, keyword, cap, dense ? 'common' : 'thin');
    if (dense) return walk;
    if (created) return byDay(created, plan.pageRows);
  }
  return ids === null ? walk : { condition: confirmed(idsCondition(ids)) };
}

/** Ticket ids as numbers, each once (a ticket of several matching parts comes once a part). */
const distinctIds = (ids: Array<string | number>) => [...new Set(ids.map(Number))];

const idsCondition = (ids: number[]) => sql`${tickets.id} = any(${`{${ids.join(',')}}`}::bigint[])`;

/** Whether the client's newest `densityWindow` tickets hold a page of hits: the walk then ends soon. */
async function fillsNewestPage(
  tx: Executor,
  clientId: string,
  matches: SQL,
  pageRows: number,
): Promise<boolean> {
  const probe = (await tx.execute(
    sql`select count(*)::int as hits from ${tickets}
         where ${tickets.id} in (select newest.id from ${tickets} newest where newest.client_id = ${clientId}
                                  order by newest.created_at desc nulls last, newest.id desc nulls last
                                  limit ${densityWindow})
           and ${matches}`,
  )) as unknown as { rows: Array<{ hits: number }> };
  return (probe.rows[0]?.hits ?? 0) >= pageRows;
}
