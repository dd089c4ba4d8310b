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
-- It never waits for a row another transaction holds, so it takes no part in a deadlock: a
-- ticket whose last part is being rewritten (an edit), or that must begin a new part while
-- its own row is locked (a message being stored, a deletion), is left for the next round.
-- Its messages' words go into one rewrite of the part, which then covers their ids.
CREATE OR REPLACE FUNCTION ticket_search_drain_client(p_client uuid, p_limit integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  r record;
  v_part integer;
  v_words tsvector;
  v_new tsvector;
  v_first bigint;
  v_last bigint;
  v_taken integer := 0;
BEGIN
  FOR r IN
    SELECT waiting.ticket_id, array_agg(waiting.message_id) AS ids
      FROM (SELECT b.ticket_id, b.message_id FROM ticket_search_backlog b
             WHERE b.client_id = p_client ORDER BY b.message_id LIMIT p_limit) waiting
     GROUP BY waiting.ticket_id
     ORDER BY waiting.ticket_id
  LOOP
    SELECT max(s.part) INTO v_part FROM ticket_search s WHERE s.ticket_id = r.ticket_id;
    IF v_part IS NOT NULL THEN
      SELECT s.words INTO v_words FROM ticket_search s
       WHERE s.ticket_id = r.ticket_id AND s.part = v_part FOR UPDATE SKIP LOCKED;
      CONTINUE WHEN NOT FOUND;
    END IF;
    SELECT min(m.id), max(m.id), strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id)))
      INTO v_first, v_last, v_new
      FROM messages m WHERE m.id = ANY(r.ids) AND m.ticket_id = r.ticket_id;
    IF v_new IS NOT NULL AND v_new <> ''::tsvector AND (v_part IS NULL OR length(v_words) >= 256) THEN
      -- A new part: its foreign key would wait for a transaction holding the ticket's row.
      PERFORM 1 FROM tickets t WHERE t.id = r.ticket_id FOR KEY SHARE SKIP LOCKED;
      CONTINUE WHEN NOT FOUND AND EXISTS (SELECT 1 FROM messages m WHERE m.id = ANY(r.ids) AND m.ticket_id = r.ticket_id);
    END IF;
    DELETE FROM ticket_search_backlog b WHERE b.client_id = p_client AND b.message_id = ANY(r.ids);
    v_taken := v_taken + cardinality(r.ids);
    -- Messages gone since, or without a word any more.
    CONTINUE WHEN v_new IS NULL OR v_new = ''::tsvector;
    IF v_part IS NOT NULL AND length(v_words) < 256 THEN
      UPDATE ticket_search s SET
          -- Unchanged words (no new one) leave the indexes alone: a HOT update.
          words = s.words || v_new,
          first_message_id = least(s.first_message_id, v_first),
          last_message_id = greatest(s.last_message_id, v_last)
       WHERE s.ticket_id = r.ticket_id AND s.part = v_part;
    ELSIF EXISTS (SELECT 1 FROM tickets t WHERE t.id = r.ticket_id) THEN
      INSERT INTO ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words)
      VALUES (r.ticket_id, coalesce(v_part + 1, 0), p_client, v_first, v_last, v_new);
    END IF;
  END LOOP;
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
-- The worker's round: up to p_limit waiting messages of each client that has some, passing
-- over a client whose parts another transaction is making; the number of rows it took.
CREATE OR REPLACE FUNCTION ticket_search_drain(p_limit integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_client uuid;
  v_taken integer := 0;
BEGIN
  FOR v_client IN SELECT DISTINCT b.client_id FROM ticket_search_backlog b LOOP
    IF ticket_search_drain_lock(v_client, false) THEN
      v_taken := v_taken + ticket_search_drain_client(v_client, p_limit);
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
