CREATE TABLE "ticket_search" (
	"ticket_id" bigint PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"words" "tsvector" DEFAULT ''::tsvector NOT NULL
);
--> statement-breakpoint
DROP INDEX "messages_text_search_idx";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_search_words_idx" ON "ticket_search" USING gin ("words");--> statement-breakpoint
-- Keyword search reads one row a ticket: the words of all its messages, positions stripped.
-- A common word is found by walking the page's tickets index and testing each ticket's row;
-- a rare one through the GIN index, inside inbox_keyword_ticket_ids.
ALTER TABLE "ticket_search" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "ticket_search"
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "ticket_search" TO app_tenant;
--> statement-breakpoint
INSERT INTO "ticket_search" (ticket_id, client_id, words)
SELECT m.ticket_id, min(m.client_id::text)::uuid, strip(to_tsvector('simple', string_agg(m.text, ' ')))
  FROM "messages" m JOIN "tickets" t ON t.id = m.ticket_id
 GROUP BY m.ticket_id;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.text <> '' THEN
      INSERT INTO ticket_search AS s (ticket_id, client_id, words)
      VALUES (NEW.ticket_id, NEW.client_id, strip(to_tsvector('simple', NEW.text)))
      ON CONFLICT (ticket_id) DO UPDATE SET words = s.words || EXCLUDED.words
        WHERE (s.words || EXCLUDED.words) <> s.words;
    END IF;
    RETURN NULL;
  END IF;
  -- An edited or removed message: the ticket's words are made again from what remains.
  UPDATE ticket_search SET words = coalesce(
      (SELECT strip(to_tsvector('simple', string_agg(m.text, ' '))) FROM messages m WHERE m.ticket_id = OLD.ticket_id),
      ''::tsvector)
   WHERE ticket_id = OLD.ticket_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_search_words
AFTER INSERT OR DELETE OR UPDATE OF text ON messages
FOR EACH ROW EXECUTE FUNCTION messages_search_words_apply();
--> statement-breakpoint
DROP FUNCTION IF EXISTS inbox_keyword_ticket_ids(uuid, text, text, text);
--> statement-breakpoint
-- The tickets matching a keyword through the GIN and trigram indexes that row-level security
-- keeps the planner from using, for the transaction's own client only; at most p_cap + 1 ids
-- (an id may come twice): more than p_cap tells the caller the keyword is common. The query
-- is planned with the keyword's own statistics (EXECUTE), so a common word is read
-- sequentially until the cap and a rare one through the GIN index.
CREATE OR REPLACE FUNCTION inbox_keyword_ticket_ids(
  p_client uuid,
  p_keyword text,
  p_name_pattern text,
  p_phone_pattern text,
  p_cap integer
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
ROWS 200
AS $$
BEGIN
  IF p_client IS DISTINCT FROM nullif(current_setting('app.client_id', true), '')::uuid THEN
    RETURN;
  END IF;
  RETURN QUERY EXECUTE
    'SELECT id FROM (
       SELECT s.ticket_id AS id FROM ticket_search s
        WHERE s.client_id = $1 AND s.words @@ websearch_to_tsquery(''simple'', $2)
       UNION ALL
       SELECT t.id FROM tickets t
        WHERE t.client_id = $1
          AND (lower(t.customer_name) LIKE $3 OR ($4::text IS NOT NULL AND t.customer_phone LIKE $4))
     ) hits
     LIMIT $5 + 1'
    USING p_client, p_keyword, p_name_pattern, p_phone_pattern, p_cap;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION inbox_keyword_ticket_ids(uuid, text, text, text, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_keyword_ticket_ids(uuid, text, text, text, integer) TO app_tenant;
