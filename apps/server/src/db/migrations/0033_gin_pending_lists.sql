-- GIN pending lists kept short (issue 13, "Inbox at scale").
--
-- A GIN index with fastupdate (PostgreSQL's default) takes new entries into a pending list,
-- which every search through the index reads whole, and which is merged into the index's
-- trees only when it passes gin_pending_list_limit (4 MB), by VACUUM, or by
-- gin_clean_pending_list. Two costs followed at a million tickets:
-- - A keyword's lookup in ticket_search_words_idx read 404 pages (3.3 ms) where 4 pages were
--   enough (0.035 ms) once the list was merged: the drainer's rewrites of the words had filled
--   400 pages of it.
-- - Every message rewrites its ticket, and every rewrite appends to the pending lists of the
--   tickets' three GIN indexes (names, phones, tags). The one insert that passes the limit
--   merges all of it inside its own transaction: a customer's message, whose batch waits. In
--   bench/sql/gin-pending-micro.sql the batch of 32 that found the names' list full took
--   158-168 ms, against a median of 22-24 ms, once in about 10,800 messages.
--
-- gin_pending_lists_clean merges the lists of every GIN index of the schema, and a worker calls
-- it every few seconds (GinPendingListsKeeper, GIN_PENDING_LISTS_INTERVAL_MS), so no list grows
-- past a few seconds' entries and no message's transaction meets a full one. One caller at a
-- time: another one passes (0).
-- SECURITY DEFINER because gin_clean_pending_list asks for the index's owner, as VACUUM does.
CREATE OR REPLACE FUNCTION gin_pending_lists_clean() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_index regclass;
  v_pages integer := 0;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended('gin_pending_lists_clean', 0)) THEN
    RETURN 0;
  END IF;
  FOR v_index IN
    SELECT c.oid::regclass
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_am a ON a.oid = c.relam
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE a.amname = 'gin' AND n.nspname = 'public' AND i.indisvalid AND i.indisready
     ORDER BY c.oid
  LOOP
    v_pages := v_pages + gin_clean_pending_list(v_index);
  END LOOP;
  RETURN v_pages;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gin_pending_lists_clean() FROM PUBLIC;
