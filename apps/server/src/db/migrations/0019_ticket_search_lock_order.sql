-- Lock order for a ticket's search words (issue 13, "Inbox at scale"). Every writer of a
-- ticket's parts now locks the ticket first, then its last part, as an agent's message, an
-- assignment or a status change already lock the ticket. Before this, a customer's message
-- arriving while an agent wrote in the same ticket could deadlock with it: the customer's
-- transaction held the ticket's last part and waited for the ticket, the agent's the
-- reverse (seen on PostgreSQL as "deadlock detected"). Now the second writer waits.
--
-- One message's words into its ticket's last part: two messages of one ticket written at
-- once take turns; a part made by both at once is merged. A message that brings no new word
-- only widens the part's message range (a HOT update: words, the indexed column, do not
-- change).
CREATE OR REPLACE FUNCTION ticket_search_append(p_ticket bigint, p_client uuid, p_message bigint, p_words tsvector)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_part integer;
  v_words tsvector;
  v_merged tsvector;
BEGIN
  PERFORM 1 FROM tickets WHERE id = p_ticket FOR UPDATE;
  SELECT part, words INTO v_part, v_words FROM ticket_search
   WHERE ticket_id = p_ticket ORDER BY part DESC LIMIT 1 FOR UPDATE;
  IF FOUND AND length(v_words) < 256 THEN
    v_merged := v_words || p_words;
    IF v_merged = v_words THEN
      UPDATE ticket_search SET last_message_id = greatest(last_message_id, p_message)
       WHERE ticket_id = p_ticket AND part = v_part AND last_message_id < p_message;
    ELSE
      UPDATE ticket_search SET words = v_merged, last_message_id = greatest(last_message_id, p_message)
       WHERE ticket_id = p_ticket AND part = v_part;
    END IF;
    RETURN;
  END IF;
  INSERT INTO ticket_search AS s (ticket_id, part, client_id, first_message_id, last_message_id, words)
  VALUES (p_ticket, coalesce(v_part + 1, 0), p_client, p_message, p_message, p_words)
  ON CONFLICT (ticket_id, part) DO UPDATE SET
    words = s.words || EXCLUDED.words,
    first_message_id = least(s.first_message_id, EXCLUDED.first_message_id),
    last_message_id = greatest(s.last_message_id, EXCLUDED.last_message_id);
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ticket_search_append(bigint, uuid, bigint, tsvector) TO app_tenant;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_words tsvector;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An edited or removed message: the parts whose range holds it are made again from the
    -- messages that remain in that range.
    PERFORM 1 FROM tickets WHERE id = OLD.ticket_id FOR UPDATE;
    UPDATE ticket_search s SET words = coalesce(
        (SELECT strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id))) FROM messages m
          WHERE m.ticket_id = OLD.ticket_id AND m.id BETWEEN s.first_message_id AND s.last_message_id),
        ''::tsvector)
     WHERE s.ticket_id = OLD.ticket_id AND OLD.id BETWEEN s.first_message_id AND s.last_message_id;
    -- Done, unless an edited message had no words when it arrived and so is in no part yet.
    IF TG_OP = 'DELETE' OR FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  IF NEW.text <> '' THEN
    v_words := strip(to_tsvector('simple', NEW.text));
    IF v_words <> ''::tsvector THEN
      PERFORM ticket_search_append(NEW.ticket_id, NEW.client_id, NEW.id, v_words);
    END IF;
  END IF;
  RETURN NULL;
END $$;
