-- The search words' drain without a join of two lists (issue 13, "Inbox at scale"). Its
-- UPDATE joined the batch's tickets to their locked parts, two unnest() lists; once PL/pgSQL
-- kept a generic plan, each list was guessed at ten rows, and the planner read one list again
-- for every row of the other: 300 tickets compared 90,000 times, 35 of the 51 ms a drain's
-- UPDATE took at 300 messages a second (auto_explain, twentieth stop). A forced custom plan,
-- with the lists' true lengths, chose the same loop. A locked part now finds its ticket's
-- words by its place in the list (array_position), and a new part likewise; the rest is as in
-- 0030.
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
      words = s.words || v_words[p.i],
      first_message_id = least(s.first_message_id, v_first[p.i]),
      last_message_id = greatest(s.last_message_id, v_last[p.i])
    FROM (SELECT l.ticket_id, l.part, array_position(v_tickets, l.ticket_id) AS i
            FROM unnest(v_locked, v_locked_parts, v_room) AS l(ticket_id, part, room) WHERE l.room) p
   WHERE s.ticket_id = p.ticket_id AND s.part = p.part;
  INSERT INTO ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words)
  SELECT f.ticket_id, coalesce(v_parts[array_position(v_part_tickets, f.ticket_id)] + 1, 0), p_client,
         v_first[f.i], v_last[f.i], v_words[f.i]
    FROM (SELECT t AS ticket_id, array_position(v_tickets, t) AS i FROM unnest(v_fresh_ok) AS t) f;
  -- The rows taken go, but those of a ticket left for the next round.
  DELETE FROM ticket_search_backlog b
   WHERE b.client_id = p_client AND b.message_id = ANY(v_ids) AND b.ticket_id <> ALL(v_held);
  GET DIAGNOSTICS v_taken = ROW_COUNT;
  RETURN v_taken;
END $$;
