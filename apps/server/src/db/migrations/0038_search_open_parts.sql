-- Search parts leave the word indexes while they are written (issue 13, "Inbox at scale";
-- bench/README.md, thirty-second stop).
--
-- A GIN index takes every word of a row's new version. The drain rewrites a ticket's last
-- part with each message that brings a new word, so every message put the part's words (54
-- on average in long conversations) into both word indexes again, about 108 entries for one
-- or two new words. After a checkpoint each index page so touched is written whole into the
-- WAL: in the first 3.4 s of a 1,000-message-a-second run into long conversations, 62 MB of
-- the 103 MB of WAL were full-page images, half of them the word indexes', and every
-- customer's commit waited behind them (webhook -> socket p99 471-676 ms; 143.5 ms with the
-- drain held off).
--
-- Now a part that the drain or a fold gives new words is open (written_at, the time it last
-- did), and only sealed parts (written_at null) are in the word indexes. Rewriting an open
-- part writes the row and three small btree entries, not its words. The workers' keeper seals parts
-- quiet for a while (ticket_search_seal_quiet): each goes into the indexes once. A search
-- reads the client's open parts beside the indexes (ticket_search_open_idx): they are the
-- conversations of the last minutes, a small set beside the sealed ones. Parts already made
-- stay sealed, as they were.
--
-- The indexes are dropped before the column is added and made again after it, partial. The
-- open parts have two small indexes: by client and day for searches, by time for the keeper.
DROP INDEX "ticket_search_words_idx";--> statement-breakpoint
DROP INDEX "ticket_search_dated_words_idx";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD COLUMN "written_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "ticket_search_open_idx" ON "ticket_search" USING btree ("client_id","created_day") WHERE written_at is not null;--> statement-breakpoint
CREATE INDEX "ticket_search_open_written_idx" ON "ticket_search" USING btree ("written_at") WHERE written_at is not null;--> statement-breakpoint
CREATE INDEX "ticket_search_words_idx" ON "ticket_search" USING gin ("words") WHERE written_at is null;--> statement-breakpoint
CREATE INDEX "ticket_search_dated_words_idx" ON "ticket_search" USING gin (ticket_search_dated(words, created_day)) WHERE written_at is null;
--> statement-breakpoint
-- Statistics for the new column now (all parts sealed), so that no plan takes the open parts
-- for many before autovacuum's next analysis.
ANALYZE ticket_search;
--> statement-breakpoint
-- As in 0036; the part that takes a tail's words is open.
CREATE OR REPLACE FUNCTION ticket_search_fold(p_tickets bigint[], p_tails integer[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_tickets bigint[];
  v_parts integer[];
  v_tails integer[];
BEGIN
  IF cardinality(p_tickets) = 0 THEN
    RETURN 0;
  END IF;
  SELECT coalesce(array_agg(f.ticket_id), '{}'), coalesce(array_agg(f.part), '{}'), coalesce(array_agg(f.tail), '{}')
    INTO v_tickets, v_parts, v_tails
    FROM (SELECT s.ticket_id, s.part, b.tail
            FROM (SELECT g.ticket_id, g.tail,
                         (SELECT max(p.part) FROM ticket_search p WHERE p.ticket_id = g.ticket_id AND p.part < g.tail) AS part
                    FROM unnest(p_tickets, p_tails) AS g(ticket_id, tail)) b
            JOIN ticket_search s ON s.ticket_id = b.ticket_id AND s.part = b.part
            JOIN ticket_search t ON t.ticket_id = b.ticket_id AND t.part = b.tail
           WHERE length(s.words || t.words) <= 256
             FOR UPDATE OF s, t SKIP LOCKED) f;
  UPDATE ticket_search s SET
      words = s.words || t.words,
      written_at = now(),
      first_message_id = least(s.first_message_id, t.first_message_id),
      last_message_id = greatest(s.last_message_id, t.last_message_id)
    FROM unnest(v_tickets, v_parts, v_tails) AS f(ticket_id, part, tail)
    JOIN ticket_search t ON t.ticket_id = f.ticket_id AND t.part = f.tail
   WHERE s.ticket_id = f.ticket_id AND s.part = f.part;
  DELETE FROM ticket_search s
   USING unnest(v_tickets, v_tails) AS f(ticket_id, tail)
   WHERE s.ticket_id = f.ticket_id AND s.part = f.tail;
  RETURN cardinality(v_tickets);
END $$;
--> statement-breakpoint
-- As in 0036; a part given new words, or begun, is open.
CREATE OR REPLACE FUNCTION ticket_search_drain_client(p_client uuid, p_limit integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_ids bigint[];
  -- Each ticket with words to add: its id, its messages' first and last id, their words.
  v_tickets bigint[];
  v_first bigint[];
  v_last bigint[];
  v_words tsvector[];
  -- Their last parts, and those of them this transaction locked (with whether they have room).
  v_part_tickets bigint[];
  v_parts integer[];
  v_locked bigint[];
  v_locked_parts integer[];
  v_room boolean[];
  -- Tickets that begin a new part, and those whose row let it.
  v_fresh bigint[];
  v_fresh_ok bigint[];
  v_held bigint[];
  -- Full tails (locked above) of tickets that begin a new one, and their parts.
  v_sealed bigint[];
  v_sealed_parts integer[];
  v_taken integer;
BEGIN
  SELECT array_agg(b.message_id) INTO v_ids
    FROM (SELECT b.message_id FROM ticket_search_backlog b
           WHERE b.client_id = p_client ORDER BY b.message_id LIMIT p_limit) b;
  IF v_ids IS NULL THEN
    RETURN 0;
  END IF;
  -- The messages' words as they are now (one gone or edited since is read so).
  SELECT coalesce(array_agg(w.ticket_id), '{}'), array_agg(w.first_id), array_agg(w.last_id), array_agg(w.words)
    INTO v_tickets, v_first, v_last, v_words
    FROM (SELECT m.ticket_id, min(m.id) AS first_id, max(m.id) AS last_id,
                 strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id))) AS words
            FROM messages m WHERE m.id = ANY(v_ids) AND m.client_id = p_client
           GROUP BY m.ticket_id) w
   WHERE w.words <> ''::tsvector;
  SELECT coalesce(array_agg(l.ticket_id), '{}'), coalesce(array_agg(l.part), '{}') INTO v_part_tickets, v_parts
    FROM (SELECT s.ticket_id, max(s.part) AS part FROM ticket_search s
           WHERE s.ticket_id = ANY(v_tickets) GROUP BY s.ticket_id) l;
  SELECT coalesce(array_agg(s.ticket_id), '{}'), coalesce(array_agg(s.part), '{}'), coalesce(array_agg(length(s.words) < 64), '{}')
    INTO v_locked, v_locked_parts, v_room
    FROM (SELECT s.ticket_id, s.part, s.words FROM ticket_search s
            JOIN unnest(v_part_tickets, v_parts) AS l(ticket_id, part) ON s.ticket_id = l.ticket_id AND s.part = l.part
             FOR UPDATE OF s SKIP LOCKED) s;
  SELECT coalesce(array_agg(t), '{}') INTO v_fresh
    FROM unnest(v_tickets) AS t
   WHERE t <> ALL(v_part_tickets)
      OR t = ANY(SELECT l.ticket_id FROM unnest(v_locked, v_room) AS l(ticket_id, room) WHERE NOT l.room);
  -- A new part's foreign key would wait for a transaction holding the ticket's row.
  SELECT coalesce(array_agg(t.id), '{}') INTO v_fresh_ok
    FROM (SELECT t.id FROM tickets t WHERE t.id = ANY(v_fresh) FOR KEY SHARE SKIP LOCKED) t;
  SELECT coalesce(array_agg(t), '{}') INTO v_held
    FROM unnest(v_tickets) AS t
   WHERE (t = ANY(v_part_tickets) AND t <> ALL(v_locked)) OR (t = ANY(v_fresh) AND t <> ALL(v_fresh_ok));

  -- A full tail of a ticket that begins a new one folds into the part before it, if it can.
  SELECT coalesce(array_agg(l.ticket_id), '{}'), coalesce(array_agg(l.part), '{}') INTO v_sealed, v_sealed_parts
    FROM unnest(v_locked, v_locked_parts, v_room) AS l(ticket_id, part, room)
   WHERE NOT l.room AND l.ticket_id = ANY(v_fresh_ok);
  PERFORM ticket_search_fold(v_sealed, v_sealed_parts);

  -- Unchanged words (no new one) leave the indexes alone: a HOT update. New ones open the
  -- part, or keep it open: it leaves the word indexes until it is sealed.
  UPDATE ticket_search s SET
      words = s.words || v_words[p.i],
      written_at = CASE WHEN s.words || v_words[p.i] = s.words THEN s.written_at ELSE now() END,
      first_message_id = least(s.first_message_id, v_first[p.i]),
      last_message_id = greatest(s.last_message_id, v_last[p.i])
    FROM (SELECT l.ticket_id, l.part, array_position(v_tickets, l.ticket_id) AS i
            FROM unnest(v_locked, v_locked_parts, v_room) AS l(ticket_id, part, room) WHERE l.room) p
   WHERE s.ticket_id = p.ticket_id AND s.part = p.part;
  INSERT INTO ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words, written_at)
  SELECT f.ticket_id, coalesce(v_parts[array_position(v_part_tickets, f.ticket_id)] + 1, 0), p_client,
         v_first[f.i], v_last[f.i], v_words[f.i], now()
    FROM (SELECT t AS ticket_id, array_position(v_tickets, t) AS i FROM unnest(v_fresh_ok) AS t) f;
  -- A new part after another is a tail that a quiet spell folds (ticket_search_fold_quiet).
  INSERT INTO ticket_search_tails (client_id, ticket_id, part)
  SELECT p_client, l.ticket_id, l.part + 1
    FROM unnest(v_part_tickets, v_parts) AS l(ticket_id, part)
   WHERE l.ticket_id = ANY(v_fresh_ok)
      ON CONFLICT (client_id, ticket_id) DO UPDATE SET part = excluded.part, opened_at = excluded.opened_at;
  -- The rows taken go, but those of a ticket left for the next round.
  DELETE FROM ticket_search_backlog b
   WHERE b.client_id = p_client AND b.message_id = ANY(v_ids) AND b.ticket_id <> ALL(v_held);
  GET DIAGNOSTICS v_taken = ROW_COUNT;
  RETURN v_taken;
END $$;
--> statement-breakpoint
-- The keeper's round: up to p_limit open parts that have had no new word for p_quiet, oldest
-- first (ticket_search_open_written_idx), go into the word indexes. A part another transaction holds (a drain writing it) is
-- passed over until a later round. Answers how many it sealed.
CREATE OR REPLACE FUNCTION ticket_search_seal_quiet(p_limit integer, p_quiet interval) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_sealed integer;
BEGIN
  UPDATE ticket_search s SET written_at = NULL
    FROM (SELECT q.ticket_id, q.part FROM ticket_search q
           WHERE q.written_at IS NOT NULL AND q.written_at < now() - p_quiet
           ORDER BY q.written_at LIMIT p_limit
             FOR UPDATE SKIP LOCKED) due
   WHERE s.ticket_id = due.ticket_id AND s.part = due.part;
  GET DIAGNOSTICS v_sealed = ROW_COUNT;
  RETURN v_sealed;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ticket_search_seal_quiet(integer, interval) FROM PUBLIC;
--> statement-breakpoint
-- The keyword's matches: its words' tickets among the sealed parts (the index) and the open
-- ones (read one by one), then the names'.
CREATE OR REPLACE FUNCTION inbox_keyword_ticket_ids(
  p_client uuid,
  p_keyword text,
  p_name_pattern text,
  p_phone_pattern text,
  p_cap integer
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
-- Every branch reads an index: the open parts' one too, whatever the statistics say of them.
SET enable_seqscan = off
ROWS 200
AS $$
BEGIN
  IF p_client IS DISTINCT FROM nullif(current_setting('app.client_id', true), '')::uuid THEN
    RETURN;
  END IF;
  RETURN QUERY EXECUTE
    'SELECT id FROM (
       SELECT s.ticket_id AS id FROM ticket_search s
        WHERE s.client_id = $1 AND s.written_at IS NULL AND s.words @@ websearch_to_tsquery(''simple'', $2)
       UNION ALL
       SELECT s.ticket_id AS id FROM ticket_search s
        WHERE s.client_id = $1 AND s.written_at IS NOT NULL AND s.words @@ websearch_to_tsquery(''simple'', $2)
       UNION ALL
       SELECT named.id FROM inbox_keyword_name_ids($1, $3, $4, $5) AS named(id)
     ) hits
     LIMIT $5 + 1'
    USING p_client, p_keyword, p_name_pattern, p_phone_pattern, p_cap;
END $$;
--> statement-breakpoint
-- As in 0024, with the open parts: their matches are read once, with their days (a part's
-- words all carry its ticket's day, so a plain match of a part of day D is a tagged match of
-- D), and each day and stretch of ten days takes those of its own.
CREATE OR REPLACE FUNCTION inbox_keyword_dated_ticket_ids(
  p_client uuid,
  p_keyword text,
  p_name_pattern text,
  p_phone_pattern text,
  p_cap integer,
  p_newest timestamptz,
  p_oldest timestamptz,
  p_enough integer
) RETURNS TABLE (ticket_ids bigint[], read_from timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
-- Every statement here reads an index. A probe that stops at its first row was planned at a
-- million tickets as a scan of every part, computing the tags of each until one matched
-- (20 s for a stretch without a match).
SET enable_seqscan = off
ROWS 1
AS $$
DECLARE
  v_query text := websearch_to_tsquery('simple', p_keyword)::text;
  v_named bigint[];
  v_found bigint[];
  v_words bigint[] := '{}';
  v_open_ids bigint[];
  v_open_days integer[];
  v_day date;
  v_day_key integer;
  v_last date;
  v_tens date;
  v_tagged tsquery;
BEGIN
  IF p_client IS DISTINCT FROM nullif(current_setting('app.client_id', true), '')::uuid THEN
    RETURN;
  END IF;
  IF v_query = '' OR querytree(v_query::tsquery) = 'T' THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(id), '{}') INTO v_named FROM inbox_keyword_name_ids(p_client, p_name_pattern, p_phone_pattern, p_cap) AS id;
  IF cardinality(v_named) > p_cap THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(s.ticket_id), '{}'), coalesce(array_agg(s.created_day), '{}')
    INTO v_open_ids, v_open_days
    FROM ticket_search s
   WHERE s.client_id = p_client AND s.written_at IS NOT NULL AND s.words @@ v_query::tsquery;
  IF p_newest IS NULL THEN
    SELECT max(created_at) INTO p_newest FROM tickets WHERE client_id = p_client;
  END IF;
  IF p_oldest IS NULL THEN
    SELECT min(created_at) INTO p_oldest FROM tickets WHERE client_id = p_client;
  END IF;
  v_day := (p_newest AT TIME ZONE 'UTC')::date;
  v_last := (p_oldest AT TIME ZONE 'UTC')::date;
  WHILE v_day >= v_last LOOP
    -- The day's tens (days 1-9, 10-19, 20-29, 30-31 of its month) as a prefix of the tags;
    -- as a number, yyyymmdd / 10 is the same stretch.
    v_day_key := to_char(v_day, 'YYYYMMDD')::integer;
    v_tens := make_date(extract(year FROM v_day)::integer, extract(month FROM v_day)::integer,
                        greatest(1, extract(day FROM v_day)::integer / 10 * 10));
    v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMM') || (extract(day FROM v_day)::integer / 10), true);
    IF EXISTS (SELECT 1 FROM unnest(v_open_days) AS o(day) WHERE o.day / 10 = v_day_key / 10)
       OR EXISTS (SELECT 1 FROM ticket_search s WHERE s.client_id = p_client AND s.written_at IS NULL
                   AND ticket_search_dated(s.words, s.created_day) @@ v_tagged) THEN
      WHILE v_day >= greatest(v_tens, v_last) LOOP
        v_day_key := to_char(v_day, 'YYYYMMDD')::integer;
        v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMMDD'), false);
        SELECT array_agg(DISTINCT f.ticket_id) INTO v_found
          FROM (SELECT s.ticket_id FROM ticket_search s
                 WHERE s.client_id = p_client AND s.written_at IS NULL
                   AND ticket_search_dated(s.words, s.created_day) @@ v_tagged
                UNION ALL
                SELECT o.ticket_id FROM unnest(v_open_ids, v_open_days) AS o(ticket_id, day)
                 WHERE o.day = v_day_key) f;
        v_words := v_words || coalesce(v_found, '{}');
        IF cardinality(v_words) >= p_enough THEN
          ticket_ids := v_named || v_words;
          read_from := v_day::timestamp AT TIME ZONE 'UTC';
          RETURN NEXT;
          RETURN;
        END IF;
        v_day := v_day - 1;
      END LOOP;
    END IF;
    v_day := v_tens - 1;
  END LOOP;
  ticket_ids := v_named || v_words;
  read_from := NULL;
  RETURN NEXT;
END $$;
