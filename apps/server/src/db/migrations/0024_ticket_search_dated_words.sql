-- Words tagged with their ticket's day (issue 13, "Inbox at scale"). A keyword found in more
-- than 5,000 tickets was looked for by walking the client's tickets newest first and testing
-- each one's words until a page of hits: quick for a word of every day, but a word common
-- only long ago ("lebaran", last spring) walked two thirds of a million tickets, 2 s a search.
-- The GIN index gives a word's matches in no order, so reading them all and sorting cost as
-- much (1 s for 114,000 matches, 4 s for 300,000).
--
-- Now each part also has an index of its words tagged with its ticket's creation day in UTC:
-- 'lebaran 20260331'. A search newest created first asks the index ten days at a time
-- ('lebaran 2026033':*, a prefix: the 30th and 31st) to pass over the stretches without a
-- match, then one day at a time within a stretch that has one, and stops at the day where it
-- has a page's worth of tickets. What it reads follows the matches of the days it needs, not
-- the tickets between.
-- A tag holds a space, which the text search parser never puts in a word, so no keyword
-- typed by a user can match a tagged word.
--
-- One expression, no subquery: PostgreSQL inlines it, so a message that changes a part's
-- words costs the index little more than the words' own index does (a subquery form, run as a
-- function of its own for every part written, cost ingest about a third of its rate).
CREATE OR REPLACE FUNCTION ticket_search_dated(p_words tsvector, p_day integer) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_day IS NULL OR length(p_words) = 0 THEN ''::tsvector
    ELSE array_to_tsvector(string_to_array(
      array_to_string(tsvector_to_array(p_words), ' ' || p_day || E'\x01') || ' ' || p_day, E'\x01'))
  END
$$;
--> statement-breakpoint
-- A keyword's query (websearch_to_tsquery's text) with each word tagged by a day (yyyymmdd)
-- or, as a prefix, a stretch of days (yyyymm and the tens of the day). A part's words all
-- carry the same day, so the tagged query matches a part of that day or stretch exactly when
-- the plain one matches the part.
CREATE OR REPLACE FUNCTION ticket_search_dated_query(p_query text, p_tag text, p_prefix boolean) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(p_query, '''((?:[^'']|'''')*)''',
    '''\1 ' || p_tag || '''' || CASE WHEN p_prefix THEN ':*' ELSE '' END, 'g')::tsquery
$$;
--> statement-breakpoint
ALTER TABLE "ticket_search" ADD COLUMN "created_day" integer;--> statement-breakpoint
UPDATE "ticket_search" s SET created_day = to_char(t.created_at AT TIME ZONE 'UTC', 'YYYYMMDD')::integer
  FROM "tickets" t WHERE t.id = s.ticket_id;
--> statement-breakpoint
-- A part made by a message (ticket_search_append) takes its ticket's day. The bench's seed
-- writes it itself.
CREATE OR REPLACE FUNCTION ticket_search_created_day() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT to_char(t.created_at AT TIME ZONE 'UTC', 'YYYYMMDD')::integer INTO NEW.created_day
    FROM tickets t WHERE t.id = NEW.ticket_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_search_created_day
BEFORE INSERT ON ticket_search
FOR EACH ROW WHEN (NEW.created_day IS NULL) EXECUTE FUNCTION ticket_search_created_day();
--> statement-breakpoint
-- A ticket's creation time does not change in the product; should it be set (an import, a
-- test), its parts follow.
CREATE OR REPLACE FUNCTION tickets_created_day_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_search SET created_day = to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYYMMDD')::integer
   WHERE ticket_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_created_day
AFTER UPDATE OF created_at ON tickets
FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION tickets_created_day_apply();
--> statement-breakpoint
CREATE INDEX "ticket_search_dated_words_idx" ON "ticket_search" USING gin (ticket_search_dated(words, created_day));
--> statement-breakpoint
-- The tickets whose customer name or phone number holds the keyword (as 0023 found them),
-- at most p_cap + 1 of them, for the transaction's own client only.
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
  -- Each word of a full name asks the trigram index for the trigrams inside it only; the
  -- whole pattern is then tested on those tickets (0023). A word under three characters
  -- gives the index nothing: such a pattern, and a single word, are asked whole.
  IF cardinality(v_words) > 1 THEN
    FOREACH v_word IN ARRAY v_words LOOP
      IF length(regexp_replace(v_word, '\\(.)', '\1', 'g')) < 3 THEN
        v_name_index := '';
        EXIT;
      END IF;
      v_name_index := v_name_index || format(' AND lower(w.customer_name) LIKE %L', '%' || v_word || '%');
    END LOOP;
  END IF;
  IF v_name_index = '' THEN
    v_name_index := ' AND lower(w.customer_name) LIKE $2';
  END IF;
  RETURN QUERY EXECUTE
    'SELECT id FROM (
       SELECT named.id FROM (
         SELECT w.id, w.customer_name FROM tickets w
          WHERE w.client_id = $1' || v_name_index || '
         OFFSET 0) named
        WHERE lower(named.customer_name) LIKE $2
       UNION ALL
       SELECT t.id FROM tickets t
        WHERE $3::text IS NOT NULL AND t.client_id = $1 AND t.customer_phone LIKE $3
     ) hits
     LIMIT $4 + 1'
    USING p_client, p_name_pattern, p_phone_pattern, p_cap;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION inbox_keyword_name_ids(uuid, text, text, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_keyword_name_ids(uuid, text, text, integer) TO app_tenant;
--> statement-breakpoint
-- The keyword's matches through the indexes, as before: its words' tickets, then the names'.
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
       SELECT named.id FROM inbox_keyword_name_ids($1, $3, $4, $5) AS named(id)
     ) hits
     LIMIT $5 + 1'
    USING p_client, p_keyword, p_name_pattern, p_phone_pattern, p_cap;
END $$;
--> statement-breakpoint
-- A common keyword's tickets, newest created first, one day at a time: the words' matches of
-- each day from p_newest's (the client's newest ticket when null) down to p_oldest's (its
-- first ticket when null), until the day at which at least p_enough tickets are found; and
-- every ticket whose name or phone number holds it. read_from is the start of the last day
-- read (UTC), null when every day was read: every match created from then on is in
-- ticket_ids. No row when the keyword cannot be read so (no word an index can find, such as
-- a negation alone, or more than p_cap names matching): the caller walks instead.
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
  v_day date;
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
  IF p_newest IS NULL THEN
    SELECT max(created_at) INTO p_newest FROM tickets WHERE client_id = p_client;
  END IF;
  IF p_oldest IS NULL THEN
    SELECT min(created_at) INTO p_oldest FROM tickets WHERE client_id = p_client;
  END IF;
  v_day := (p_newest AT TIME ZONE 'UTC')::date;
  v_last := (p_oldest AT TIME ZONE 'UTC')::date;
  WHILE v_day >= v_last LOOP
    -- The day's tens (days 1-9, 10-19, 20-29, 30-31 of its month) as a prefix of the tags.
    v_tens := make_date(extract(year FROM v_day)::integer, extract(month FROM v_day)::integer,
                        greatest(1, extract(day FROM v_day)::integer / 10 * 10));
    v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMM') || (extract(day FROM v_day)::integer / 10), true);
    IF EXISTS (SELECT 1 FROM ticket_search s WHERE s.client_id = p_client
                AND ticket_search_dated(s.words, s.created_day) @@ v_tagged) THEN
      WHILE v_day >= greatest(v_tens, v_last) LOOP
        v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMMDD'), false);
        SELECT array_agg(DISTINCT s.ticket_id) INTO v_found FROM ticket_search s
         WHERE s.client_id = p_client AND ticket_search_dated(s.words, s.created_day) @@ v_tagged;
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION inbox_keyword_dated_ticket_ids(uuid, text, text, text, integer, timestamptz, timestamptz, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_keyword_dated_ticket_ids(uuid, text, text, text, integer, timestamptz, timestamptz, integer) TO app_tenant;
