-- Row-level security keeps PostgreSQL from using an index for any condition whose functions
-- are not leakproof (@@, LIKE, lower, to_tsvector ...), so under app_tenant the keyword
-- search scanned every message. This function runs as its owner, where the GIN indexes are
-- usable, and checks the tenant itself: it answers only for the client the transaction is
-- bound to (app.client_id), so it opens nothing RLS would close.
CREATE OR REPLACE FUNCTION inbox_keyword_ticket_ids(
  p_client uuid,
  p_keyword text,
  p_name_pattern text,
  p_phone_pattern text
) RETURNS SETOF bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
ROWS 200
AS $$
  SELECT m.ticket_id FROM messages m
   WHERE p_client = nullif(current_setting('app.client_id', true), '')::uuid
     AND m.client_id = p_client
     AND to_tsvector('simple', m.text) @@ websearch_to_tsquery('simple', p_keyword)
  UNION ALL
  SELECT t.id FROM tickets t
   WHERE p_client = nullif(current_setting('app.client_id', true), '')::uuid
     AND t.client_id = p_client
     AND (lower(t.customer_name) LIKE p_name_pattern
          OR (p_phone_pattern IS NOT NULL AND t.customer_phone LIKE p_phone_pattern))
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION inbox_keyword_ticket_ids(uuid, text, text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_keyword_ticket_ids(uuid, text, text, text) TO app_tenant;
