-- A customer's name is looked up among the client's distinct names, then its tickets by name
-- (issue 13, "Inbox at scale"; bench/README.md, fortieth stop).
--
-- Every keyword search also looks for the keyword in the customers' names. That was the
-- trigram index of lower(customer_name) over all tickets: at a million tickets a full name
-- (`Bambang Wati Salim`) merged the posting lists of eleven common trigrams for 5.5-8.5 ms to
-- find 8 tickets, and a word of two letters, which has no trigram, read the whole index and
-- then every ticket it named: 3.2-4.2 s for a search of `ab`.
--
-- The client's tickets carry about 150,000 distinct names at a million tickets. They are kept
-- here, lowered, by triggers on tickets: a statement's new tickets add their names (one
-- statement for the batch, names in order so that two batches take their locks in the same
-- order), and a changed name adds the new one. A name is never removed: a ticket's name does
-- not change, and a name without tickets finds none. The search asks this table's trigram
-- index for the names, then the tickets by the names over a btree of (client_id,
-- lower(customer_name)), which replaces the tickets' trigram index.
CREATE TABLE "ticket_customer_names" (
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "ticket_customer_names_client_id_name_pk" PRIMARY KEY("client_id","name")
);
--> statement-breakpoint
INSERT INTO "ticket_customer_names" ("client_id", "name")
SELECT DISTINCT "client_id", lower("customer_name") FROM "tickets" ORDER BY 1, 2;
--> statement-breakpoint
ALTER TABLE "ticket_customer_names" ADD CONSTRAINT "ticket_customer_names_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_customer_names_trgm_idx" ON "ticket_customer_names" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tickets_client_customer_name_idx" ON "tickets" USING btree ("client_id",lower("customer_name"));--> statement-breakpoint
DROP INDEX "tickets_customer_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "ticket_customer_names" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "ticket_customer_names"
  USING (client_id = nullif(current_setting('app.client_id', true), '')::uuid)
  WITH CHECK (client_id = nullif(current_setting('app.client_id', true), '')::uuid);
--> statement-breakpoint
ANALYZE "ticket_customer_names";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_customer_names_add() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_customer_names (client_id, name)
  SELECT DISTINCT client_id, lower(customer_name) FROM named_tickets ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_customer_names_add AFTER INSERT ON tickets
  REFERENCING NEW TABLE AS named_tickets
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_customer_names_add();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_customer_name_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_customer_names (client_id, name)
  VALUES (NEW.client_id, lower(NEW.customer_name))
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_customer_name_changed AFTER UPDATE OF customer_name ON tickets
  FOR EACH ROW WHEN (OLD.customer_name IS DISTINCT FROM NEW.customer_name)
  EXECUTE FUNCTION ticket_customer_name_changed();
--> statement-breakpoint
-- As in 0024, with the names read from ticket_customer_names: each word of a full name asks
-- its trigram index for the trigrams inside that word, the whole pattern is tested on those
-- names, and their tickets are read by name. A pattern with a word under three characters,
-- and a single word, are asked whole (such a word has no trigram: the index then gives every
-- name, 150,000 at a million tickets, not every ticket).
CREATE OR REPLACE FUNCTION inbox_keyword_name_ids(
  p_client uuid,
  p_name_pattern text,
  p_phone_pattern text,
  p_cap integer
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
ROWS 20
AS $$
DECLARE
  -- The pattern is '%' || escaped text || '%' (containsPattern): an escape (\%, \_, \\) never
  -- holds a space, so splitting on spaces keeps each escape whole.
  v_words text[] := regexp_split_to_array(substr(p_name_pattern, 2, length(p_name_pattern) - 2), '\s+');
  v_word text;
  v_name_index text := '';
BEGIN
  IF p_client IS DISTINCT FROM nullif(current_setting('app.client_id', true), '')::uuid THEN
    RETURN;
  END IF;
  IF cardinality(v_words) > 1 THEN
    FOREACH v_word IN ARRAY v_words LOOP
      IF length(regexp_replace(v_word, '\\(.)', '\1', 'g')) < 3 THEN
        v_name_index := '';
        EXIT;
      END IF;
      v_name_index := v_name_index || format(' AND n.name LIKE %L', '%' || v_word || '%');
    END LOOP;
  END IF;
  IF v_name_index = '' THEN
    v_name_index := ' AND n.name LIKE $2';
  END IF;
  RETURN QUERY EXECUTE
    'SELECT id FROM (
       SELECT t.id FROM tickets t
        WHERE t.client_id = $1
          AND lower(t.customer_name) = ANY (ARRAY(
            SELECT named.name FROM (
              SELECT n.name FROM ticket_customer_names n
               WHERE n.client_id = $1' || v_name_index || '
              OFFSET 0) named
             WHERE named.name LIKE $2))
       UNION ALL
       SELECT t.id FROM tickets t
        WHERE $3::text IS NOT NULL AND t.client_id = $1 AND t.customer_phone LIKE $3
     ) hits
     LIMIT $4 + 1'
    USING p_client, p_name_pattern, p_phone_pattern, p_cap;
END $$;
