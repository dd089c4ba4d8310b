// A history for the realtime bench's conversations (bench:realtime --history N): before the
// measured runs, each conversation of the run gets 0.5 to 1.5 × N earlier messages, so that
// the load writes into long conversations as a busy shop's regulars do, not into conversations
// of a dozen messages. Their search words are kept by the product's own drain
// (ticket_search_drain), a few messages of every conversation at a time, so each
// conversation's parts are the ones the product makes as a conversation grows.
import pg from 'pg';
import { visitorNamePrefix } from './inbound-sources';
import { bigClientSlug } from './owner-api';
import type { SeedQuery } from './seed-client';
import { createVocabularyTables } from './seed-vocabulary';

/** Messages each conversation gets before each drain: a few, as a chat's messages come. */
const messagesPerRound = 12;

/** What adding the history did: conversations, messages, and the parts it left. */
export interface HistoryFigures {
  conversations: number;
  messages: number;
  /** Seconds to write it, drain it and checkpoint. */
  seconds: number;
  /** The run's conversations' search parts: how many, and the words of each one's last part. */
  parts: number;
  lastPartWords: { mean: number; p50: number; p90: number };
}

/**
 * Gives every conversation of the run that has fewer than half of `messages` messages a
 * history of its own length, from half of `messages` to one and a half times it (so their
 * last parts are at every stage of filling up): customer and agent alternating, in the seed's
 * words, a customer's order number in every question. Waits until the drain has put
 * their words into parts.
 */
export async function addRunHistory(
  databaseUrl: string,
  runTag: string,
  messages: number,
): Promise<HistoryFigures> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = (text: string, values?: unknown[]) => client.query(text, values);
  try {
    await createVocabularyTables(q);
    const clientId = (await q(`select id from clients where slug = $1`, [bigClientSlug])).rows[0]
      .id as string;
    await q(
      `create temporary table history_tickets as
       select t.id, t.client_id, t.room_id, t.channel_account_id, t.contact_id, t.assignee_id, t.customer_name,
              ($3::int / 2 + ((t.id * 2654435761) % 1000) * $3::int / 1000)::int as length
         from tickets t join contacts c on c.id = t.contact_id
        where c.client_id = $1 and c.name like $2
          and (select count(*) from messages m
                where m.room_id = t.room_id and m.id > t.message_floor and m.ticket_id = t.id) < $3::int / 2`,
      [clientId, `${visitorNamePrefix(runTag)} %`, messages],
    );
    const conversations = Number((await q(`select count(*) from history_tickets`)).rows[0].count);
    let written = 0;
    const longest = Math.floor(messages / 2) + messages;
    for (let first = 0; first < longest; first += messagesPerRound) {
      const last = Math.min(longest, first + messagesPerRound) - 1;
      const inserted = await q(
        `insert into messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type,
                               sender_id, sender_name, sender_ref, text, status, created_at, updated_at)
         select t.client_id, t.room_id, t.id, t.channel_account_id, 'PublicMessage',
                case when k % 2 = 1 then 'OUTBOUND' else 'INBOUND' end,
                case when k % 2 = 1 then 'AGENT' else 'CUSTOMER' end,
                case when k % 2 = 1 then coalesce(t.assignee_id::text, '') else t.contact_id::text end,
                case when k % 2 = 1 then 'Agen' else t.customer_name end,
                case when k % 2 = 1 then 'user:' || coalesce(t.assignee_id::text, '') else 'identity:' || t.contact_id end,
                case when k % 2 = 1 then ph.answers[1 + (t.id + k) % 11]
                     else ph.questions[1 + (t.id * 3 + k) % 17]
                          || ' Nomor pesanan INV/2026/' || lpad(((t.id * 31 + k) % 99991)::text, 5, '0')
                end,
                'READ', now() - make_interval(secs => (t.length - k) * 20), now() - make_interval(secs => (t.length - k) * 20)
           from history_tickets t
           cross join (select (select array_agg(body order by n) from pq) as questions,
                              (select array_agg(body order by n) from pa) as answers) ph
           cross join generate_series($1::int, least($2::int, t.length - 1)) k`,
        [first, last],
      );
      written += inserted.rowCount ?? 0;
      await drainClient(q, clientId);
    }
    // Writing the history filled a good part of max_wal_size: a checkpoint now, so that the
    // measured run does not meet the one it would start, nor the full pages written after it.
    await q('checkpoint');
    // Every part of the run's conversations, and the words of each one's last part.
    const parts = (
      await q(
        `select count(*)::int as parts,
                coalesce(avg(words) filter (where from_last = 1), 0)::float8 as mean,
                coalesce(percentile_disc(0.5) within group (order by words) filter (where from_last = 1), 0)::int as p50,
                coalesce(percentile_disc(0.9) within group (order by words) filter (where from_last = 1), 0)::int as p90
           from (select length(s.words) as words,
                        row_number() over (partition by s.ticket_id order by s.part desc) as from_last
                   from ticket_search s join history_tickets t on t.id = s.ticket_id) p`,
      )
    ).rows[0];
    return {
      conversations,
      messages: written,
      seconds: (performance.now() - started) / 1000,
      parts: parts.parts,
      lastPartWords: { mean: Number(parts.mean), p50: parts.p50, p90: parts.p90 },
    };
  } finally {
    await client.end();
  }
}

/** Drains the client's waiting search words (the server's keeper may be draining beside it). */
async function drainClient(q: SeedQuery, clientId: string) {
  for (;;) {
    await q(`select ticket_search_drain(500)`);
    const waiting = Number(
      (await q(`select count(*) from ticket_search_backlog where client_id = $1`, [clientId])).rows[0].count,
    );
    if (waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
