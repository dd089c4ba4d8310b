-- A customer's full name typed as the search keyword (issue 13, "Inbox at scale"). For a
-- pattern such as '%oki nanda hasibuan%' pg_trgm also extracts the trigrams at each word's
-- edges ('  o', '  n', 'an ', 'da ' ...), which nearly every name holds: at a million tickets
-- the trigram index read about 400 pages of those lists, 14-17 ms a search, to find 10 tickets.
-- Each word alone ('%oki%', '%nanda%', '%hasibuan%') gives only the trigrams inside it, and
-- the same 10 tickets in 5 ms. The index is now asked for every word of the pattern, and the
-- whole pattern is then tested on those tickets only, so the ids (and the count against the
-- cap) are what they were: the page takes them as the keyword's matches.
-- A word shorter than three characters gives the index nothing to narrow by: such a pattern,
-- and a single word, are asked as before.
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
      v_name_index := v_name_index || format(' AND lower(w.customer_name) LIKE %L', '%' || v_word || '%');
    END LOOP;
  END IF;
  IF v_name_index = '' THEN
    v_name_index := ' AND lower(w.customer_name) LIKE $3';
  END IF;
  RETURN QUERY EXECUTE
    'SELECT id FROM (
       SELECT s.ticket_id AS id FROM ticket_search s
        WHERE s.client_id = $1 AND s.words @@ websearch_to_tsquery(''simple'', $2)
       UNION ALL
       SELECT named.id FROM (
         SELECT w.id, w.customer_name FROM tickets w
          WHERE w.client_id = $1' || v_name_index || '
         OFFSET 0) named
        WHERE lower(named.customer_name) LIKE $3
       UNION ALL
       SELECT t.id FROM tickets t
        WHERE $4::text IS NOT NULL AND t.client_id = $1 AND t.customer_phone LIKE $4
     ) hits
     LIMIT $5 + 1'
    USING p_client, p_keyword, p_name_pattern, p_phone_pattern, p_cap;
END $$;
