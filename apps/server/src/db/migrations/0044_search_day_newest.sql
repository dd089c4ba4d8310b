-- A page of a thin keyword takes only the newest matches of the day that fills it (issue 13,
-- "Inbox at scale"; bench/README.md, thirty-ninth stop).
--
-- inbox_keyword_dated_ticket_ids reads a keyword's matches a day at a time, newest day first,
-- until they fill a page, and gave every match of the last day it read. A word of last spring
-- (`lebaran` at a million tickets) has 942 matches on its one day: the page then fetched all
-- 942 tickets to sort them and keep 51 (3,091 buffers, 2.2 ms), and the server carried the
-- ids there and back.
--
-- Now, when the caller says every match in the range is shown (`p_exact`: no other filter,
-- and a caller who sees every ticket) and that day holds more than four times the matches the
-- page still needs, they are taken newest first over the day's stretch of the tickets'
-- creation index until the page has them, one more for the cursor's own ticket (a later
-- page's range ends at it, and it matched), and `read_from` is the creation time of the last
-- one taken. Every match of that day created at that time or later (and within the range) is
-- in the list, ties too. The day's ids are tested on the index entries of one day, newest
-- first, and the read stops at the page's count: 66 buffers for `lebaran`.
--
-- A page whose other filters drop matches (a channel, a status, an agent's own chats) still
-- takes the whole day: trimmed, it came out short and widened two or three times over the same
-- day (`lebaran` on WhatsApp only: 10.6–11.1 ms a search against 6.4–8.1).
--
-- The function gains an argument, so the old one goes first (its grants with it). The rest
-- of the body is 0038's as it was.
DROP FUNCTION inbox_keyword_dated_ticket_ids(uuid, text, text, text, integer, timestamptz, timestamptz, integer);
--> statement-breakpoint
CREATE FUNCTION inbox_keyword_dated_ticket_ids(
  p_client uuid,
  p_keyword text,
  p_name_pattern text,
  p_phone_pattern text,
  p_cap integer,
  p_newest timestamptz,
  p_oldest timestamptz,
  p_enough integer,
  p_exact boolean
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
  v_open_ids bigint[];
  v_open_days integer[];
  v_day date;
  v_day_key integer;
  v_last date;
  v_tens date;
  v_tagged tsquery;
  v_earlier integer;
  v_start timestamptz;
  v_from timestamptz;
  v_newest bigint[];
  v_need integer;
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
  SELECT coalesce(array_agg(s.ticket_id), '{}'), coalesce(array_agg(s.created_day), '{}')
    INTO v_open_ids, v_open_days
    FROM ticket_search s
   WHERE s.client_id = p_client AND s.written_at IS NOT NULL AND s.words @@ v_query::tsquery;
  IF p_newest IS NULL THEN
    SELECT max(created_at) INTO p_newest FROM tickets WHERE client_id = p_client;
  END IF;
  IF p_oldest IS NULL THEN
    SELECT min(created_at) INTO p_oldest FROM tickets WHERE client_id = p_client;
  END IF;
  v_day := (p_newest AT TIME ZONE 'UTC')::date;
  v_last := (p_oldest AT TIME ZONE 'UTC')::date;
  WHILE v_day >= v_last LOOP
    -- The day's tens (days 1-9, 10-19, 20-29, 30-31 of its month) as a prefix of the tags;
    -- as a number, yyyymmdd / 10 is the same stretch.
    v_day_key := to_char(v_day, 'YYYYMMDD')::integer;
    v_tens := make_date(extract(year FROM v_day)::integer, extract(month FROM v_day)::integer,
                        greatest(1, extract(day FROM v_day)::integer / 10 * 10));
    v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMM') || (extract(day FROM v_day)::integer / 10), true);
    IF EXISTS (SELECT 1 FROM unnest(v_open_days) AS o(day) WHERE o.day / 10 = v_day_key / 10)
       OR EXISTS (SELECT 1 FROM ticket_search s WHERE s.client_id = p_client AND s.written_at IS NULL
                   AND ticket_search_dated(s.words, s.created_day) @@ v_tagged) THEN
      WHILE v_day >= greatest(v_tens, v_last) LOOP
        v_day_key := to_char(v_day, 'YYYYMMDD')::integer;
        v_tagged := ticket_search_dated_query(v_query, to_char(v_day, 'YYYYMMDD'), false);
        SELECT array_agg(DISTINCT f.ticket_id) INTO v_found
          FROM (SELECT s.ticket_id FROM ticket_search s
                 WHERE s.client_id = p_client AND s.written_at IS NULL
                   AND ticket_search_dated(s.words, s.created_day) @@ v_tagged
                UNION ALL
                SELECT o.ticket_id FROM unnest(v_open_ids, v_open_days) AS o(ticket_id, day)
                 WHERE o.day = v_day_key) f;
        v_earlier := cardinality(v_words);
        v_words := v_words || coalesce(v_found, '{}');
        IF cardinality(v_words) >= p_enough THEN
          v_need := p_enough - v_earlier;
          v_start := v_day::timestamp AT TIME ZONE 'UTC';
          ticket_ids := v_named || v_words;
          read_from := v_start;
          IF p_exact AND cardinality(v_found) > 4 * v_need THEN
            -- The day holds far more matches than the page still needs: its newest ones
            -- within the range (one more for the cursor's own ticket), read over the day's
            -- stretch of the tickets' creation index (the subquery's OFFSET 0 keeps that
            -- order, rather than looking every match up by id and sorting them all).
            SELECT array_agg(taken.id), min(taken.created_at) INTO v_newest, v_from
              FROM (SELECT day.id, day.created_at
                      FROM (SELECT t.id, t.created_at FROM tickets t
                             WHERE t.client_id = p_client AND t.created_at >= v_start
                               AND t.created_at < v_start + interval '1 day' AND t.created_at <= p_newest
                             ORDER BY t.created_at DESC NULLS LAST, t.id DESC NULLS LAST OFFSET 0) day
                     WHERE day.id = ANY(v_found)
                     ORDER BY day.created_at DESC NULLS LAST, day.id DESC NULLS LAST
                     LIMIT v_need + 1) taken
            HAVING count(*) = v_need + 1;
            -- Too few of them within the range (the count held some newer than it): the whole
            -- day, as before. Otherwise the matches created at the last one's time too (ties).
            IF v_from IS NOT NULL THEN
              SELECT v_newest || coalesce(array_agg(t.id), '{}') INTO v_newest
                FROM tickets t
               WHERE t.client_id = p_client AND t.created_at = v_from
                 AND t.id = ANY(v_found) AND t.id <> ALL(v_newest);
              ticket_ids := v_named || v_words[1:v_earlier] || v_newest;
              read_from := v_from;
            END IF;
          END IF;
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
REVOKE ALL ON FUNCTION inbox_keyword_dated_ticket_ids(uuid, text, text, text, integer, timestamptz, timestamptz, integer, boolean) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_keyword_dated_ticket_ids(uuid, text, text, text, integer, timestamptz, timestamptz, integer, boolean) TO app_tenant;
