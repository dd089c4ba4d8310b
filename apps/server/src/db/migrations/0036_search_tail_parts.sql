CREATE TABLE "ticket_search_tails" (
	"client_id" uuid NOT NULL,
	"ticket_id" bigint NOT NULL,
	"part" integer NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_search_tails_client_id_ticket_id_pk" PRIMARY KEY("client_id","ticket_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_search_tails" ADD CONSTRAINT "ticket_search_tails_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_search_tails_opened_idx" ON "ticket_search_tails" USING btree ("opened_at");
--> statement-breakpoint
ALTER TABLE "ticket_search_tails" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "ticket_search_tails"
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
-- Search parts that a message rewrites small (issue 13, "Inbox at scale"). A message's words
-- went into its ticket's last part until that part held 256 words, and a GIN index takes
-- every word of a new row version, in two indexes: in a long conversation each message put
-- up to 256 words into them again. With 150 to 450 earlier messages in each conversation
-- (bench:realtime --history 300), the drain cost PostgreSQL 0.65 ms a message against 0.12 in
-- conversations of a dozen, 12 MB of WAL a round, and live-chat ingest fell from 67-70% of
-- the bare INSERT to 45-47% (twenty-eighth stop).
--
-- Now a ticket's last part, its tail, takes new words only until it holds 64. The message
-- after that begins a new tail, and the full one folds into the part before it when their
-- words together still fit 256: one rewrite of a part of up to 256 words for every 64 new
-- words or so, instead of one for every message. A tail that does not fit stays a part of
-- its own, and the tails after it fold into it. A tail that a conversation leaves behind is
-- folded once it has been quiet a while (ticket_search_tails, ticket_search_fold_quiet, run
-- by the workers' keeper), so a quiet ticket has as few parts as before and a search reads no
-- more of them. A keyword still matches a ticket when it matches one of its parts. The rest
-- of the drain is as in 0031.
--
-- Each given part folds into the part before it, when their words together fit 256 and no
-- other transaction holds either: the part before takes the words and widens its range to
-- cover both, and the given part goes. The part before is found first and locked by itself
-- (SKIP LOCKED under a LIMIT would pass on to an earlier part, whose range the fold would then
-- overlap). The caller holds the client's drain lock. Answers how many folded.
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
REVOKE ALL ON FUNCTION ticket_search_fold(bigint[], integer[]) FROM PUBLIC;
--> statement-breakpoint
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

  -- Unchanged words (no new one) leave the indexes alone: a HOT update.
  UPDATE ticket_search s SET
      words = s.words || v_words[p.i],
      first_message_id = least(s.first_message_id, v_first[p.i]),
      last_message_id = greatest(s.last_message_id, v_last[p.i])
    FROM (SELECT l.ticket_id, l.part, array_position(v_tickets, l.ticket_id) AS i
            FROM unnest(v_locked, v_locked_parts, v_room) AS l(ticket_id, part, room) WHERE l.room) p
   WHERE s.ticket_id = p.ticket_id AND s.part = p.part;
  INSERT INTO ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words)
  SELECT f.ticket_id, coalesce(v_parts[array_position(v_part_tickets, f.ticket_id)] + 1, 0), p_client,
         v_first[f.i], v_last[f.i], v_words[f.i]
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
-- The keeper's round for tails a conversation left: up to p_limit tails begun more than
-- p_quiet ago, oldest first, each folded into the part before it if it can be (else it stays
-- a part of its own, as a full tail that did not fit does). A client whose parts another
-- transaction is making is passed over until a later round. Answers how many tails it took.
CREATE OR REPLACE FUNCTION ticket_search_fold_quiet(p_limit integer, p_quiet interval) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_client uuid;
  v_tickets bigint[];
  v_tails integer[];
  v_taken integer := 0;
BEGIN
  FOR v_client IN
    SELECT DISTINCT q.client_id
      FROM (SELECT e.client_id FROM ticket_search_tails e
             WHERE e.opened_at < now() - p_quiet ORDER BY e.opened_at LIMIT p_limit) q
  LOOP
    EXIT WHEN v_taken >= p_limit;
    IF ticket_search_drain_lock(v_client, false) THEN
      WITH due AS (
        DELETE FROM ticket_search_tails e
         WHERE e.client_id = v_client
           AND e.ticket_id IN (SELECT d.ticket_id FROM ticket_search_tails d
                                WHERE d.client_id = v_client AND d.opened_at < now() - p_quiet
                                ORDER BY d.opened_at LIMIT p_limit - v_taken)
        RETURNING e.ticket_id, e.part)
      SELECT coalesce(array_agg(due.ticket_id), '{}'), coalesce(array_agg(due.part), '{}')
        INTO v_tickets, v_tails FROM due;
      PERFORM ticket_search_fold(v_tickets, v_tails);
      v_taken := v_taken + cardinality(v_tickets);
    END IF;
  END LOOP;
  RETURN v_taken;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ticket_search_fold_quiet(integer, interval) FROM PUBLIC;
