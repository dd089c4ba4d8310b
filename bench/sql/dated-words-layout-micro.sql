-- The dated words' key with its stretch of days first (bench/history.md, thirtieth stop), in
-- psql on the bench database, beside the layout of migration 0024. 0024 tags each word with
-- its ticket's day after the word ('lebaran 20260331'), so one day's keys lie among every
-- other day's keys of the same word. The layout tried here puts the stretch of ten days
-- first ('2026033 lebaran 1'), so a search still asks for a stretch with one prefix. This
-- builds that layout's index beside the real one (about 100 s at a million tickets), times
-- the big client's search by day for a rare and two common words in alternating rounds, prints
-- both indexes' sizes, and drops what it made:
--
--   psql -d bench -f bench/sql/dated-words-layout-micro.sql
--
-- Thirtieth stop, AMD EPYC 2 vCPU, three runs (medians, 0024 and stretch first): lebaran 4.04
-- and 4.12 ms a search, 3.80 and 3.96, 3.40 and 3.69; garansi 7.40 and 7.68, 6.76 and 6.55,
-- 6.70 and 6.71; refund 7.09 and 7.38, 6.57 and 6.68, 6.73 and 5.53. The index as it is: 217 MB
-- built fresh, 237 MB after a few realtime runs; stretch first: 264 MB built fresh. Run before a
-- VACUUM of ticket_search, the searches read the dead entries a realtime run leaves behind and
-- say nothing about the layout, so the script vacuums first.
\set QUIET on
VACUUM ticket_search;
CREATE OR REPLACE FUNCTION ticket_search_dated_sf(p_words tsvector, p_day integer) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_day IS NULL OR length(p_words) = 0 THEN ''::tsvector
    ELSE array_to_tsvector(string_to_array(
      left(p_day::text, 7) || ' '
        || array_to_string(tsvector_to_array(p_words),
                           ' ' || right(p_day::text, 1) || E'\x01' || left(p_day::text, 7) || ' ')
        || ' ' || right(p_day::text, 1),
      E'\x01'))
  END
$$;
CREATE OR REPLACE FUNCTION ticket_search_dated_query_sf(p_query text, p_tag text, p_prefix boolean) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(p_query, '''((?:[^'']|'''')*)''',
    '''' || left(p_tag, 7) || ' \1 ' || CASE WHEN p_prefix THEN ''':*' ELSE right(p_tag, 1) || '''' END, 'g')::tsquery
$$;
-- The search by day as the database has it, made to read the stretch-first keys.
DO $$
BEGIN
  EXECUTE replace(replace(replace(pg_get_functiondef('inbox_keyword_dated_ticket_ids'::regproc),
            'FUNCTION public.inbox_keyword_dated_ticket_ids(', 'FUNCTION public.inbox_keyword_dated_ticket_ids_sf('),
            'ticket_search_dated_query(', 'ticket_search_dated_query_sf('),
            'ticket_search_dated(s.', 'ticket_search_dated_sf(s.');
END $$;
CREATE INDEX ticket_search_dated_words_sf_idx ON ticket_search USING gin (ticket_search_dated_sf(words, created_day));
-- \gset keeps the answer out of the output.
SELECT set_config('app.client_id', (SELECT id::text FROM clients WHERE slug = 'bench-big'), false) AS client \gset
CREATE TEMP TABLE dated_micro (layout text, word text, ms float8);
DO $$
DECLARE c uuid := current_setting('app.client_id')::uuid; t0 timestamptz; r int; i int; w text;
BEGIN
  FOR r IN 1..6 LOOP
    FOREACH w IN ARRAY ARRAY['lebaran', 'garansi', 'refund'] LOOP
      t0 := clock_timestamp();
      FOR i IN 1..5 LOOP PERFORM * FROM inbox_keyword_dated_ticket_ids(c, w, '%' || w || '%', null, 5000, null, null, 50); END LOOP;
      INSERT INTO dated_micro VALUES ('0024 word first', w, extract(epoch FROM clock_timestamp() - t0) * 1000 / 5);
      t0 := clock_timestamp();
      FOR i IN 1..5 LOOP PERFORM * FROM inbox_keyword_dated_ticket_ids_sf(c, w, '%' || w || '%', null, 5000, null, null, 50); END LOOP;
      INSERT INTO dated_micro VALUES ('stretch first', w, extract(epoch FROM clock_timestamp() - t0) * 1000 / 5);
    END LOOP;
  END LOOP;
END $$;
\set QUIET off
SELECT word, layout, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2) AS median_ms,
       round(min(ms)::numeric, 2) AS min_ms, round(max(ms)::numeric, 2) AS max_ms
  FROM dated_micro GROUP BY 1, 2 ORDER BY 1, 2;
SELECT pg_size_pretty(pg_relation_size('ticket_search_dated_words_idx')) AS word_first,
       pg_size_pretty(pg_relation_size('ticket_search_dated_words_sf_idx')) AS stretch_first;
\set QUIET on
DROP INDEX ticket_search_dated_words_sf_idx;
DROP FUNCTION inbox_keyword_dated_ticket_ids_sf(uuid, text, text, text, integer, timestamptz, timestamptz, integer);
DROP FUNCTION ticket_search_dated_query_sf(text, text, boolean);
DROP FUNCTION ticket_search_dated_sf(tsvector, integer);
