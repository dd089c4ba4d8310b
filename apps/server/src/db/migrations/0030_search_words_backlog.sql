CREATE TABLE "ticket_search_backlog" (
	"client_id" uuid NOT NULL,
	"message_id" bigint NOT NULL,
	"ticket_id" bigint NOT NULL,
	CONSTRAINT "ticket_search_backlog_client_id_message_id_pk" PRIMARY KEY("client_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_search_backlog" ADD CONSTRAINT "ticket_search_backlog_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A ticket's search words kept a moment after its messages (issue 13, "Inbox at scale").
-- Each message that brought a new word rewrote its ticket's last part inside the transaction
-- that stored it, and a GIN index takes every word of a new row version: up to 256 words into
-- two indexes, 41% of PostgreSQL's time for a customer's message (pg_stat_statements,
-- eighteenth stop), and the indexes' pending lists were merged by whichever message filled
-- them, a stall in a customer's acknowledgement.
--
-- Now storing a message only notes it in ticket_search_backlog (one row, one small index).
-- ticket_search_drain, run by every worker process a few times a second, takes the waiting
-- messages of a client, reads their text, and adds the words of each ticket's messages to its
-- last part in one rewrite, however many of them came meanwhile. A keyword search first calls
-- ticket_search_catch_up for its own client, so it still finds every message stored before it.
ALTER TABLE "ticket_search_backlog" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "ticket_search_backlog"
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
-- A queue: rows come and go all day, so it is vacuumed after every thousand dead ones.
ALTER TABLE "ticket_search_backlog" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
--> statement-breakpoint
-- Messages written before this migration are in their parts already.
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An edited or removed message: the parts whose range holds it are made again from the
    -- messages that remain in that range (as in 0025).
    PERFORM 1 FROM tickets WHERE id = OLD.ticket_id FOR UPDATE;
    IF TG_OP = 'DELETE' AND NOT FOUND THEN
      RETURN NULL;
    END IF;
    UPDATE ticket_search s SET words = coalesce(
        (SELECT strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id))) FROM messages m
          WHERE m.ticket_id = OLD.ticket_id AND m.id BETWEEN s.first_message_id AND s.last_message_id),
        ''::tsvector)
     WHERE s.ticket_id = OLD.ticket_id AND OLD.id BETWEEN s.first_message_id AND s.last_message_id;
    IF TG_OP = 'DELETE' OR FOUND THEN
      RETURN NULL;
    END IF;
    -- An edited message in no part (still waiting, or wordless when it came) waits again; the
    -- drainer reads its text as it is then.
    IF NEW.text <> '' THEN
      INSERT INTO ticket_search_backlog (client_id, message_id, ticket_id)
      VALUES (NEW.client_id, NEW.id, NEW.ticket_id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END IF;
  IF NEW.text <> '' THEN
    INSERT INTO ticket_search_backlog (client_id, message_id, ticket_id)
    VALUES (NEW.client_id, NEW.id, NEW.ticket_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Up to p_limit waiting messages of one client into their tickets' last parts, oldest first;
-- the number of backlog rows it took (a ticket it had to leave counts none). The caller holds
-- the client's drain lock (ticket_search_drain_lock), so a client's parts are made by one
-- transaction at a time.
--
-- Set-based: a statement for each step over all the batch's tickets, not a loop of them (a
-- loop cost 0.5 ms a ticket in psql, more than the message's own trigger had). A ticket's
-- messages go into one rewrite of its part, which then covers their ids.
--
-- It never waits for a row another transaction holds, so it takes no part in a deadlock: a
-- ticket whose last part is being rewritten (an edit), or that must begin a new part while
-- its own row is locked (a message being stored, a deletion), is left for the next round.
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
  SELECT coalesce(array_agg(s.ticket_id), '{}'), coalesce(array_agg(s.part), '{}'), coalesce(array_agg(length(s.words) < 256), '{}')
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

  -- Unchanged words (no new one) leave the indexes alone: a HOT update.
  UPDATE ticket_search s SET
      words = s.words || n.words,
      first_message_id = least(s.first_message_id, n.first_id),
      last_message_id = greatest(s.last_message_id, n.last_id)
    FROM unnest(v_tickets, v_first, v_last, v_words) AS n(ticket_id, first_id, last_id, words)
    JOIN unnest(v_locked, v_locked_parts, v_room) AS l(ticket_id, part, room) ON l.ticket_id = n.ticket_id AND l.room
   WHERE s.ticket_id = l.ticket_id AND s.part = l.part;
  INSERT INTO ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words)
  SELECT n.ticket_id, coalesce(l.part + 1, 0), p_client, n.first_id, n.last_id, n.words
    FROM unnest(v_tickets, v_first, v_last, v_words) AS n(ticket_id, first_id, last_id, words)
    LEFT JOIN unnest(v_part_tickets, v_parts) AS l(ticket_id, part) ON l.ticket_id = n.ticket_id
   WHERE n.ticket_id = ANY(v_fresh_ok);
  -- The rows taken go, but those of a ticket left for the next round.
  DELETE FROM ticket_search_backlog b
   WHERE b.client_id = p_client AND b.message_id = ANY(v_ids) AND b.ticket_id <> ALL(v_held);
  GET DIAGNOSTICS v_taken = ROW_COUNT;
  RETURN v_taken;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ticket_search_drain_client(uuid, integer) FROM PUBLIC;
--> statement-breakpoint
-- The lock that lets one transaction at a time make a client's parts (until it ends).
CREATE OR REPLACE FUNCTION ticket_search_drain_lock(p_client uuid, p_wait boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF p_wait THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('ticket_search:' || p_client::text, 0));
    RETURN true;
  END IF;
  RETURN pg_try_advisory_xact_lock(hashtextextended('ticket_search:' || p_client::text, 0));
END $$;
--> statement-breakpoint
-- The worker's round: up to p_limit waiting messages in all, the clients whose oldest waiting
-- message is oldest first (a busy client neither keeps the others waiting nor makes the
-- transaction, and the locks it holds, long), passing over a client whose parts another
-- transaction is making; the number of rows it took.
CREATE OR REPLACE FUNCTION ticket_search_drain(p_limit integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_client uuid;
  v_taken integer := 0;
BEGIN
  FOR v_client IN
    SELECT b.client_id FROM ticket_search_backlog b GROUP BY b.client_id ORDER BY min(b.message_id)
  LOOP
    EXIT WHEN v_taken >= p_limit;
    IF ticket_search_drain_lock(v_client, false) THEN
      v_taken := v_taken + ticket_search_drain_client(v_client, p_limit - v_taken);
    END IF;
  END LOOP;
  RETURN v_taken;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ticket_search_drain(integer) FROM PUBLIC;
--> statement-breakpoint
-- Before a keyword search, in the tenant's own transaction: every message of the client
-- stored so far into its parts. It waits for a drain of the client under way, so a search
-- never misses a message that was stored before it began.
CREATE OR REPLACE FUNCTION ticket_search_catch_up(p_client uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_taken integer;
BEGIN
  IF p_client IS DISTINCT FROM nullif(current_setting('app.client_id', true), '')::uuid THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ticket_search_backlog b WHERE b.client_id = p_client) THEN
    RETURN;
  END IF;
  PERFORM ticket_search_drain_lock(p_client, true);
  LOOP
    v_taken := ticket_search_drain_client(p_client, 1000);
    EXIT WHEN v_taken < 1000;
  END LOOP;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ticket_search_catch_up(uuid) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ticket_search_catch_up(uuid) TO app_tenant;
